import type { Hex } from 'viem';
import type { EvmContext } from '../context.ts';
import { isNotFound } from '../errors.ts';

/** What a mined transaction burnt: gas used × the effective price from its receipt; null when there is no receipt. */
export async function feePaid(ctx: EvmContext, args: { txHash: string }): Promise<bigint | null> {
  try {
    const receipt = await ctx.client.getTransactionReceipt({ hash: args.txHash as Hex });
    return receipt.gasUsed * receipt.effectiveGasPrice;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
