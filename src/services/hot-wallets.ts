import type { ChainAdapter } from '../chains/port.ts';
import type { Chain } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';
import { type Deps, requireKeys } from './deps.ts';
import { describeChainError, isNodeUnreachable } from './describe-chain-error.ts';
import { listTokens } from './resolve-token.ts';

/** One hot wallet as `kassa wallets` shows it. */
export interface HotWalletReport {
  chain: Chain;
  address: string;
  /** Decimal balances by symbol; a balance that could not be read is null, with the error beside it. */
  balances: Record<string, string | null>;
  /** The same balances in base units. */
  baseUnits: Record<string, bigint | null>;
  /** One line a person can act on (`ETH: node unreachable at … (connection refused)`), when a read failed. */
  error?: string;
}

/**
 * Each enabled chain's hot wallet (the payout source the operator funds) and its balance in every
 * configured token of that chain, read from the chain. A chain that cannot be reached still lists
 * its address, with one line saying why (describe-chain-error.ts); once its node proved
 * unreachable, its other tokens are not asked for (each ask would wait out the same retries).
 */
export async function hotWalletReport(
  deps: Pick<Deps, 'db' | 'config' | 'keys'>,
  adapters: ReadonlyMap<Chain, ChainAdapter>,
): Promise<HotWalletReport[]> {
  const keys = requireKeys(deps as Deps);
  const tokens = await listTokens(deps);
  return Promise.all(
    [...adapters.entries()].map(async ([chain, adapter]) => {
      const address = keys.hotWallet(chain).address;
      const report: HotWalletReport = { chain, address, balances: {}, baseUnits: {} };
      let unreachable = false;
      for (const token of tokens.filter((t) => t.chain === chain)) {
        if (unreachable) {
          report.balances[token.symbol] = null;
          report.baseUnits[token.symbol] = null;
          continue;
        }
        try {
          const base = await adapter.balance(address, token);
          report.balances[token.symbol] = formatAmount(base, token.decimals);
          report.baseUnits[token.symbol] = base;
        } catch (error) {
          report.balances[token.symbol] = null;
          report.baseUnits[token.symbol] = null;
          report.error = describeChainError(deps.config, chain, error);
          unreachable = isNodeUnreachable(error);
        }
      }
      return report;
    }),
  );
}
