import type { SweepQuote, TokenSpec } from '../../port.ts';
import { toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { readEnergyTotals, sunForEnergy } from '../delegation.ts';
import { bandwidthBurn, TOKEN_TX_BYTES, TRX_TX_BYTES, trxTransferBurn } from '../fees.ts';
import { int64 } from '../wire.ts';
import { chainParams, resources } from './account.ts';
import { balance } from './balance.ts';
import { transferEnergy } from './contract-call.ts';

/** Bytes budgeted for a DelegateResourceContract or UnDelegateResourceContract with its result. */
const DELEGATION_TX_BYTES = 300n;

const ceilScale = (value: bigint, factor: number) => {
  const thousandths = BigInt(Math.ceil(factor * 1000));
  return (value * thousandths + 999n) / 1000n;
};

/**
 * Prices a sweep on TRON. A TRC-20 balance needs energy (estimated for this very transfer) and
 * bandwidth (the address's free daily allowance usually covers it). With `delegate` and enough
 * staked TRX on the hot wallet, the energy is lent (`delegate`: only the activation of an address
 * the chain does not know yet costs TRX); otherwise the hot wallet sends the TRX burning it costs
 * at the network's price, times `margin` (`topup`; it activates the address too). TRX sweeps pay
 * their own bandwidth (`self`).
 */
export async function sweepQuote(
  ctx: TronContext,
  args: { from: string; to: string; hot: string; token: TokenSpec; margin: number; delegate: boolean },
): Promise<SweepQuote> {
  const params = await chainParams(ctx);
  const deposit = await resources(ctx, { address: args.from });
  const base = { haveBase: deposit.balance, delegateSun: 0n, unsweepableBase: 0n };
  if (args.token.contract === null) {
    const destination = await resources(ctx, { address: args.to });
    const fee = trxTransferBurn(destination.exists, deposit, params, true);
    const amount = deposit.balance > fee ? deposit.balance - fee : 0n;
    return { ...base, mode: 'self', amountBase: amount, needBase: fee, topUpBase: 0n, feeBase: fee };
  }
  const amount = await balance(ctx, { address: args.from, token: args.token });
  if (amount === 0n)
    return { ...base, mode: 'topup', amountBase: 0n, needBase: 0n, topUpBase: 0n, feeBase: 0n };
  const energy = ceilScale(
    await transferEnergy(ctx, {
      owner: toHex41(args.from),
      contract: toHex41(args.token.contract),
      to: toHex41(args.to),
      amount,
    }),
    args.margin,
  );
  const missingEnergy = energy > deposit.energyLeft ? energy - deposit.energyLeft : 0n;
  // an address the chain does not know yet gets its free bandwidth once a TRX transfer creates it
  const bandwidth = deposit.exists ? bandwidthBurn(TOKEN_TX_BYTES, deposit, params, true) : 0n;
  const hot = await resources(ctx, { address: args.hot });
  const topUpFee = (topUp: bigint) => {
    if (topUp === 0n) return 0n;
    return deposit.exists
      ? bandwidthBurn(TRX_TX_BYTES, hot, params, true)
      : trxTransferBurn(false, hot, params, true);
  };
  if (args.delegate && missingEnergy > 0n) {
    const hex = toHex41(args.hot);
    const [resource, size] = await Promise.all([
      ctx.http.call('/wallet/getaccountresource', { address: hex }),
      ctx.http.call('/wallet/getcandelegatedmaxsize', { owner_address: hex, type: 1 }),
    ]);
    const totals = readEnergyTotals(resource);
    const sun = totals ? sunForEnergy(missingEnergy, totals) : null;
    if (sun !== null && sun <= int64(size?.max_size)) {
      const need = bandwidth;
      let topUp = need > deposit.balance ? need - deposit.balance : 0n;
      if (!deposit.exists && topUp === 0n) topUp = 1n; // the smallest transfer that creates the account
      // lending and taking back: bandwidth only (the free allowance, else burnt)
      const lending = 2n * bandwidthBurn(DELEGATION_TX_BYTES, hot, params, true);
      return {
        ...base,
        mode: 'delegate',
        amountBase: amount,
        needBase: need,
        topUpBase: topUp,
        delegateSun: sun,
        feeBase: topUp + topUpFee(topUp) + lending,
      };
    }
  }
  const need = missingEnergy * params.energyPrice + bandwidth;
  let topUp = need > deposit.balance ? need - deposit.balance : 0n;
  if (!deposit.exists && topUp === 0n) topUp = 1n;
  return {
    ...base,
    mode: 'topup',
    amountBase: amount,
    needBase: need,
    topUpBase: topUp,
    feeBase: topUp + topUpFee(topUp),
  };
}
