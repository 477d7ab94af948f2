import { ChainError } from '../../errors.ts';
import type { SuiContext } from '../context.ts';

/**
 * The pessimistic fee of one payout for the 422 check: 5,000 computation units at the reference
 * gas price plus four object writes of storage at 3,000,000 MIST each (a coin costs about 1,976,000
 * at today's storage price). Every budget signPayout picks for a payout with a handful of coins
 * stays below it.
 */
const FEE_COMPUTATION_UNITS = 5_000n;
const FEE_STORAGE_MIST = 12_000_000n;

/** The pessimistic fee of one payout, in MIST, at a reference gas price. */
export function payoutFeeCeiling(referenceGasPrice: bigint): bigint {
  return referenceGasPrice * FEE_COMPUTATION_UNITS + FEE_STORAGE_MIST;
}

/** The epoch's reference gas price, in MIST per computation unit. */
export async function referenceGasPrice(ctx: SuiContext): Promise<bigint> {
  const { epoch } = await ctx.rpc.call(
    (c, o) => c.ledgerService.getEpoch({ readMask: { paths: ['reference_gas_price'] } }, o).response,
  );
  if (epoch?.referenceGasPrice === undefined)
    throw new ChainError('node_error', `${ctx.chain}: the RPC reported no gas price`);
  return epoch.referenceGasPrice;
}

/** A pessimistic fee (payoutFeeCeiling at the current reference gas price), in MIST. */
export async function payoutFeeEstimate(ctx: SuiContext): Promise<bigint> {
  return payoutFeeCeiling(await referenceGasPrice(ctx));
}
