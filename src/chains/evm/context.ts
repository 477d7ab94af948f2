import { createPublicClient, custom, defineChain, type PublicClient, type Chain as ViemChain } from 'viem';
import type { ActiveChain } from '../../config/active-chain.ts';
import type { Chain } from '../../domain/chains.ts';
import type { Logger } from '../../lib/logger.ts';
import { RpcEndpoints } from '../rpc/endpoints.ts';
import { jsonRpcClient } from '../rpc/json-rpc.ts';
import { checkEndpoint } from './actions/check-endpoint.ts';
import { LogRange } from './log-range.ts';

/** What every EVM action works with: the chain's settings, its endpoints and a viem client over them. */
export interface EvmContext {
  readonly chain: Chain;
  readonly settings: ActiveChain;
  readonly logger: Logger;
  /** The chain's RPC URLs with fail-over; viem's client and the slot judge both go through them. */
  readonly endpoints: RpcEndpoints;
  readonly client: PublicClient;
  readonly viemChain: ViemChain;
  /** The adaptive eth_getLogs window. */
  readonly logRange: LogRange;
}

/** Options for tests and operators. */
export interface EvmOptions {
  /** Per-request timeout (ms) before failing over. */
  timeoutMs?: number;
}

/** Builds the context of a chain (no network I/O). */
export function createEvmContext(
  settings: ActiveChain,
  logger: Logger,
  options: EvmOptions = {},
): EvmContext {
  const endpoints = new RpcEndpoints(settings.rpc, logger, {
    timeoutMs: options.timeoutMs,
    check: (url, signal) => checkEndpoint(settings, url, signal),
  });
  const rpc = jsonRpcClient(endpoints);
  const viemChain = defineChain({
    id: settings.chainId ?? 1,
    name: settings.chain,
    nativeCurrency: { name: 'native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const client = createPublicClient({
    chain: viemChain,
    transport: custom(
      { request: ({ method, params }) => rpc(method, params as unknown[]) },
      { retryCount: 0 },
    ),
    cacheTime: 0,
  }) as PublicClient;
  return {
    chain: settings.chain,
    settings,
    logger,
    endpoints,
    client,
    viemChain,
    logRange: new LogRange(settings.maxLogRange),
  };
}
