import { mapLimit } from '../../../lib/map-limit.ts';
import { ChainError } from '../../errors.ts';
import type { ObservedTransfer, TokenSpec } from '../../port.ts';
import { rememberBlock, type SuiContext } from '../context.ts';
import { checkpointRef, depositsInCheckpoint, tokensByCoinType } from '../deposits.ts';
import { type Checkpoint, isNotFound, MASKS } from '../grpc.ts';

/** Checkpoints per scan step (each read with one GetCheckpoint). */
export const SCAN_STEP = 100;
/** GetCheckpoint calls in flight during a scan. */
const SCAN_CONCURRENCY = 16;

/**
 * Deposits in checkpoints [from, to]: each checkpoint read once with its transactions' digest,
 * sender, status and balance changes, 16 at a time. Throws ChainError `missing_history` when the
 * node lacks a checkpoint in the range (pruned, or a lagging node): the scan step is retried,
 * nothing is skipped.
 */
export async function scan(
  ctx: SuiContext,
  args: { from: number; to: number; addresses: ReadonlySet<string>; tokens: TokenSpec[] },
): Promise<ObservedTransfer[]> {
  const { from, to, addresses } = args;
  if (addresses.size === 0 || from > to) return [];
  const watched = tokensByCoinType(args.tokens);
  if (watched.size === 0) return [];
  const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const found = await mapLimit(heights, SCAN_CONCURRENCY, async (height) => {
    let checkpoint: Checkpoint | undefined;
    try {
      ({ checkpoint } = await ctx.rpc.call(
        (c, o) =>
          c.ledgerService.getCheckpoint(
            {
              checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: BigInt(height) },
              readMask: { paths: [...MASKS.checkpointDeposits] },
            },
            o,
          ).response,
      ));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (!checkpoint) {
      throw new ChainError(
        'missing_history',
        `${ctx.chain}: the RPC has no checkpoint ${height} (pruned, or the node lags); the scan will retry`,
      );
    }
    rememberBlock(ctx, checkpointRef(checkpoint));
    return depositsInCheckpoint(checkpoint, addresses, watched);
  });
  return found.flat();
}
