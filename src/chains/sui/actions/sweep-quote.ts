import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { SweepQuote, TokenSpec } from '../../port.ts';
import type { SuiContext } from '../context.ts';
import { normalizeCoinType, SUI_COIN_TYPE } from '../deposits.ts';
import { MAX_COINS_PER_TRANSACTION } from '../payout-tx.ts';
import { coins } from './coins.ts';
import { payoutFeeCeiling, referenceGasPrice } from './fee-estimate.ts';

/**
 * Prices a sweep on Sui: always `sponsor` (the hot wallet owns the gas, nothing is sent first).
 * What moves is the address's coins of the type (the largest 200 in one transaction); what an
 * address balance (SIP-58) holds cannot be moved by a transaction that spends coins and is reported
 * as `unsweepableBase`. The fee is the pessimistic one payouts are priced with.
 */
export async function sweepQuote(
  ctx: SuiContext,
  args: { from: string; token: TokenSpec },
): Promise<SweepQuote> {
  const owner = normalizeSuiAddress(args.from);
  const coinType = args.token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(args.token.contract);
  const fee = payoutFeeCeiling(await referenceGasPrice(ctx));
  const quote = {
    mode: 'sponsor' as const,
    needBase: 0n,
    haveBase: 0n,
    topUpBase: 0n,
    delegateSun: 0n,
    feeBase: fee,
  };
  if (coinType === null) return { ...quote, amountBase: 0n, feeBase: 0n, unsweepableBase: 0n };
  const all = await coins(ctx, { owner, coinType });
  const sorted = all.sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
  const movable = sorted.slice(0, MAX_COINS_PER_TRANSACTION).reduce((s, c) => s + c.balance, 0n);
  const { balance } = await ctx.rpc.call(
    (c, o) => c.stateService.getBalance({ owner, coinType }, o).response,
  );
  const total = balance?.balance ?? movable;
  const inCoins = all.reduce((s, c) => s + c.balance, 0n);
  return {
    ...quote,
    amountBase: movable,
    feeBase: movable > 0n ? fee : 0n,
    unsweepableBase: total > inCoins ? total - inCoins : 0n,
  };
}
