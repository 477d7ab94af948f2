import { type ActiveChain, activeChain } from '../config/active-chain.ts';
import type { Config } from '../config/schema.ts';
import { CHAINS, type Chain, type Family, familyOf } from '../domain/chains.ts';
import type { Logger } from '../lib/logger.ts';
import type { ChainAdapter } from './port.ts';

/** Builds one family's adapter from a chain's active settings. */
export type AdapterFactory = (settings: ActiveChain, logger: Logger) => ChainAdapter;

/**
 * The adapter of each chain family, loaded on first use: each pulls in its chain's SDK, so commands
 * that touch no chain (merchant, token, migrate) start without loading viem, tronweb or @mysten/sui.
 */
const factories: Partial<Record<Family, () => Promise<AdapterFactory>>> = {
  evm: async () => {
    const { createEvmAdapter } = await import('./evm/adapter.ts');
    return (settings, logger) => createEvmAdapter(settings, logger);
  },
  tron: async () => {
    const { createTronAdapter } = await import('./tron/adapter.ts');
    return (settings, logger) => createTronAdapter(settings, logger);
  },
  sui: async () => {
    const { createSuiAdapter } = await import('./sui/adapter.ts');
    return (settings, logger) => createSuiAdapter(settings, logger);
  },
};

/**
 * One adapter per enabled chain (a chain with RPC URLs on the configured network). Builds nothing
 * that talks to the network yet: connecting is the worker's job, so start-up never waits on an RPC.
 */
export async function createAdapters(
  config: Config,
  logger: Logger,
  only?: Chain[],
): Promise<Map<Chain, ChainAdapter>> {
  const out = new Map<Chain, ChainAdapter>();
  for (const chain of only ?? CHAINS) {
    const settings = activeChain(config, chain);
    if (!settings.enabled) continue;
    const load = factories[familyOf(chain)];
    if (!load) {
      logger.warn({ chain }, 'no adapter for this chain family in this build; the chain is not scanned');
      continue;
    }
    const factory = await load();
    out.set(chain, factory(settings, logger.child({ chain })));
  }
  return out;
}
