import type { Hex } from 'viem';
import type { PayoutLookup } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { isNotFound } from '../errors.ts';
import { block } from './block.ts';

/**
 * Where a transaction stands: mined (its receipt, in a block still on the chain), pending (known to
 * the node without a receipt, or its receipt's block was just replaced), or unknown.
 */
export async function lookup(ctx: EvmContext, args: { txHash: string }): Promise<PayoutLookup> {
  const hash = args.txHash as Hex;
  try {
    const receipt = await ctx.client.getTransactionReceipt({ hash });
    const mined = await block(ctx, { height: Number(receipt.blockNumber) });
    if (!mined || mined.hash !== receipt.blockHash) return { state: 'pending' };
    return {
      state: 'mined',
      blockNum: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      timestamp: mined.timestamp,
      success: receipt.status === 'success',
      ...(receipt.status === 'success' ? {} : { error: 'The transaction reverted.' }),
    };
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    await ctx.client.getTransaction({ hash });
    return { state: 'pending' };
  } catch (error) {
    if (isNotFound(error)) return { state: 'unknown' };
    throw error;
  }
}
