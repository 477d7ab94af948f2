import { activeChain } from '../config/active-chain.ts';
import { CHAINS, type Chain } from '../domain/chains.ts';
import type { Deps } from './deps.ts';
import { pausedChains } from './payout-pause.ts';

/** Whether the worker signs new payout transactions on a chain. */
export interface ChainSigning {
  chain: Chain;
  paused: boolean;
}

/**
 * Payout signing on every chain enabled in the configuration: running, or paused by `kassa payouts
 * pause` (or the dashboard). Read from the database, so it is what the worker acts on.
 */
export async function payoutSigning(deps: Pick<Deps, 'db' | 'config'>): Promise<ChainSigning[]> {
  const paused = await pausedChains(deps);
  return CHAINS.filter((chain) => activeChain(deps.config, chain).enabled).map((chain) => ({
    chain,
    paused: paused.has(chain),
  }));
}
