import type { BlockRef } from '../../port.ts';
import { rememberBlock, type SuiContext } from '../context.ts';
import { checkpointRef } from '../deposits.ts';
import { isNotFound, MASKS } from '../grpc.ts';

/** A checkpoint as a block: sequence number, digest, unix seconds; null when the node has none there. */
export async function block(ctx: SuiContext, args: { height: number }): Promise<BlockRef | null> {
  const { height } = args;
  if (!Number.isSafeInteger(height) || height < 0) return null;
  const cached = ctx.blocks.get(height);
  if (cached) return cached;
  try {
    const { checkpoint } = await ctx.rpc.call(
      (c, o) =>
        c.ledgerService.getCheckpoint(
          {
            checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: BigInt(height) },
            readMask: { paths: [...MASKS.checkpointRef] },
          },
          o,
        ).response,
    );
    if (!checkpoint) return null;
    return rememberBlock(ctx, checkpointRef(checkpoint));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
