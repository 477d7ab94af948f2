import type { EvmContext } from '../context.ts';

/** What a transaction pays per gas: EIP-1559 fees, or a legacy gas price. */
export type FeesPerGas = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

/** Gas a payout is budgeted for when estimating fees for the 422 check (pessimistic). */
const TOKEN_TRANSFER_GAS = 100_000n;
const NATIVE_TRANSFER_GAS = 21_000n;

/** Today's fees: the node's EIP-1559 estimate where configured, else its gas price plus 10 %. */
export async function feesPerGas(ctx: EvmContext): Promise<FeesPerGas> {
  if (ctx.settings.eip1559) {
    const f = await ctx.client.estimateFeesPerGas();
    return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
  }
  const gasPrice = await ctx.client.getGasPrice();
  return { gasPrice: (gasPrice * 11n) / 10n };
}

/** The native coin one payout may burn at today's fees, at most (100,000 gas for a token, 21,000 native). */
export async function payoutFeeEstimate(ctx: EvmContext, args: { native: boolean }): Promise<bigint> {
  const fees = await feesPerGas(ctx);
  const price = 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas;
  return price * (args.native ? NATIVE_TRANSFER_GAS : TOKEN_TRANSFER_GAS);
}
