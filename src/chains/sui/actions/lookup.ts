import type { PayoutLookup } from '../../port.ts';
import type { SuiContext } from '../context.ts';
import { describeFailure } from '../execution.ts';
import { type ExecutedTransaction, isNotFound, MASKS } from '../grpc.ts';
import { block } from './block.ts';

/**
 * Where a transaction stands: unknown (the node has no such digest), pending (executed, so final,
 * but in no checkpoint yet), or mined in a checkpoint with its status. A transaction the node knows
 * no longer holds coins back from new payouts.
 */
export async function lookup(ctx: SuiContext, args: { txHash: string }): Promise<PayoutLookup> {
  let tx: ExecutedTransaction | undefined;
  try {
    ({ transaction: tx } = await ctx.rpc.call(
      (c, o) =>
        c.ledgerService.getTransaction(
          { digest: args.txHash, readMask: { paths: [...MASKS.transactionState] } },
          o,
        ).response,
    ));
  } catch (error) {
    if (isNotFound(error)) return { state: 'unknown' };
    throw error;
  }
  ctx.known.delete(args.txHash);
  if (tx?.checkpoint === undefined) return { state: 'pending' };
  const mined = await block(ctx, { height: Number(tx.checkpoint) });
  if (!mined) return { state: 'pending' };
  const success = tx.effects?.status?.success === true;
  return {
    state: 'mined',
    blockNum: mined.number,
    blockHash: mined.hash,
    timestamp: mined.timestamp,
    success,
    ...(success ? {} : { error: describeFailure(tx.effects?.status) }),
  };
}
