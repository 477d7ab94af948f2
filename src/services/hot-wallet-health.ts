import type { ChainAdapter } from '../chains/port.ts';
import type { Chain } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';
import type { Deps } from './deps.ts';
import { describeChainError } from './describe-chain-error.ts';
import { hotWalletReport } from './hot-wallets.ts';
import { listTokens } from './resolve-token.ts';

/** A hot wallet with what the operator must know about paying fees from it. */
export interface HotWalletHealth {
  chain: Chain;
  address: string;
  balances: { symbol: string; amount: string | null; native: boolean }[];
  nativeSymbol: string | null;
  /** Native coin one token payout burns at most, at the current estimate; null when unknown. */
  feePerPayout: string | null;
  /** How many token payouts the native balance pays the fees of (floor); null when unknown. */
  payoutsCovered: number | null;
  /** True when that is fewer than `admin.lowFeePayouts`. */
  low: boolean;
  /** One line saying what could not be read, when something could not. */
  problem: string | null;
}

/**
 * Each hot wallet's balances (hot-wallets.ts) and whether its native coin runs low for fees: the
 * chain's own pessimistic fee estimate of one token payout (sending its first configured token to
 * itself) against the native balance; `low` below `admin.lowFeePayouts` payouts. Talks to the
 * chains; a chain that cannot be read says why and is never marked low on a guess.
 */
export async function hotWalletHealth(
  deps: Pick<Deps, 'db' | 'config' | 'keys'>,
  adapters: ReadonlyMap<Chain, ChainAdapter>,
): Promise<HotWalletHealth[]> {
  const tokens = await listTokens(deps);
  const report = await hotWalletReport(deps, adapters);
  return Promise.all(
    report.map(async (w) => {
      const mine = tokens.filter((t) => t.chain === w.chain);
      const native = mine.find((t) => t.contract === null) ?? null;
      const token = mine.find((t) => t.contract !== null) ?? native;
      const health: HotWalletHealth = {
        chain: w.chain,
        address: w.address,
        balances: mine.map((t) => ({
          symbol: t.symbol,
          amount: w.balances[t.symbol] ?? null,
          native: t.contract === null,
        })),
        nativeSymbol: native?.symbol ?? null,
        feePerPayout: null,
        payoutsCovered: null,
        low: false,
        problem: w.error ?? null,
      };
      const adapter = adapters.get(w.chain);
      const nativeBase = native ? w.baseUnits[native.symbol] : null;
      if (!adapter || !native || !token || nativeBase === null || nativeBase === undefined || w.error)
        return health;
      try {
        const fee = await adapter.payoutFeeEstimate(w.address, w.address, token, 1n);
        health.feePerPayout = formatAmount(fee, native.decimals);
        const covered = fee > 0n ? nativeBase / fee : null;
        health.payoutsCovered = covered === null ? null : Number(covered > 1_000_000n ? 1_000_000n : covered);
        health.low = covered !== null && covered < BigInt(deps.config.admin.lowFeePayouts);
      } catch (error) {
        health.problem = describeChainError(deps.config, w.chain, error);
      }
      return health;
    }),
  );
}
