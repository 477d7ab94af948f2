import { type ActiveChain, activeChain } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { CHAINS, type Chain, type Family, familyOf } from '../domain/chains.ts';
import type { Logger } from '../lib/logger.ts';
import { EvmAdapter } from './evm/adapter.ts';
import type { ChainAdapter } from './port.ts';
import { SuiAdapter } from './sui/adapter.ts';
import { TronAdapter } from './tron/adapter.ts';

/** Builds one family's adapter from a chain's active settings. */
export type AdapterFactory = (settings: ActiveChain, logger: Logger) => ChainAdapter;

/** The adapter of each chain family. */
const factories: Partial<Record<Family, AdapterFactory>> = {
  evm: (settings, logger) => new EvmAdapter(settings, logger),
  tron: (settings, logger) => new TronAdapter(settings, logger),
  sui: (settings, logger) => new SuiAdapter(settings, logger),
};

/**
 * One adapter per enabled chain (a chain with RPC URLs on the configured network). Builds nothing
 * that talks to the network yet: connecting is the worker's job, so start-up never waits on an RPC.
 */
export function createAdapters(config: Config, logger: Logger, only?: Chain[]): Map<Chain, ChainAdapter> {
  const out = new Map<Chain, ChainAdapter>();
  for (const chain of only ?? CHAINS) {
    const settings = activeChain(config, chain);
    if (!settings.enabled) continue;
    const factory = factories[familyOf(chain)];
    if (!factory) {
      logger.warn({ chain }, 'no adapter for this chain family in this build; the chain is not scanned');
      continue;
    }
    out.set(chain, factory(settings, logger.child({ chain })));
  }
  return out;
}
