import type { ChainAdapter } from '../chains/port.ts';
import type { Chain } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';
import { type Deps, requireKeys } from './deps.ts';
import { listTokens } from './resolve-token.ts';

/** One hot wallet as `kassa wallets` shows it. */
export interface HotWalletReport {
  chain: Chain;
  address: string;
  /** Decimal balances by symbol; a balance that could not be read is null, with the error beside it. */
  balances: Record<string, string | null>;
  error?: string;
}

/**
 * Each enabled chain's hot wallet (the payout source the operator funds) and its balance in every
 * configured token of that chain, read from the chain. A chain that cannot be reached still lists
 * its address.
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
      const report: HotWalletReport = { chain, address, balances: {} };
      for (const token of tokens.filter((t) => t.chain === chain)) {
        try {
          report.balances[token.symbol] = formatAmount(await adapter.balance(address, token), token.decimals);
        } catch (error) {
          report.balances[token.symbol] = null;
          report.error = (error as Error).message.split('\n')[0];
        }
      }
      return report;
    }),
  );
}
