import type { Chain } from '../domain/chains.ts';
import type { Config } from './schema.ts';

/** A chain's settings for the configured network, flattened. */
export interface ActiveChain {
  chain: Chain;
  enabled: boolean;
  rpc: string[];
  chainId: number | undefined;
  tokens: Config['chains'][Chain]['mainnet']['tokens'];
  explorerTx: string;
  confirmations: number | 'finalized';
  confirmationFloor: number;
  pollIntervalMs: number;
  maxLogRange: number;
  eip1559: boolean;
}

/** The settings of one chain on the configured network. A chain without RPC URLs is disabled. */
export function activeChain(config: Config, chain: Chain): ActiveChain {
  const settings = config.chains[chain];
  const net = settings[config.network];
  return {
    chain,
    enabled: settings.enabled && net.rpc.length > 0,
    rpc: net.rpc,
    chainId: net.chainId,
    tokens: net.tokens,
    explorerTx: net.explorerTx,
    confirmations: settings.confirmations,
    confirmationFloor: settings.confirmationFloor,
    pollIntervalMs: settings.pollIntervalMs,
    maxLogRange: settings.maxLogRange,
    eip1559: settings.eip1559,
  };
}
