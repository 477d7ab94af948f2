import type { ActiveChain } from '../../config/active-chain.ts';
import type { Chain } from '../../domain/chains.ts';
import type { Logger } from '../../lib/logger.ts';
import { RpcEndpoints } from '../rpc/endpoints.ts';
import { checkEndpoint } from './actions/check-endpoint.ts';
import { type ChainParams, DEFAULT_FEE_LIMIT_CAP } from './fees.ts';
import { callOn, TronHttp } from './http.ts';

/** How far past the head block a payout transaction stays valid (java-tron accepts up to 24 h; tronweb uses 60 s). */
const DEFAULT_EXPIRATION_MS = 3 * 60_000;

/** Options for tests and operators. */
export interface TronOptions {
  /** per-request timeout (ms) before failing over */
  timeoutMs?: number;
  /** highest fee_limit a payout may carry, in sun */
  feeLimitCap?: bigint;
  /** how long after the head block a payout transaction expires (ms) */
  expirationMs?: number;
}

/** What every TRON action works with: settings, the java-tron HTTP API over fail-over endpoints, small caches. */
export interface TronContext {
  readonly chain: Chain;
  readonly settings: ActiveChain;
  readonly logger: Logger;
  readonly endpoints: RpcEndpoints;
  readonly http: TronHttp;
  readonly feeLimitCap: bigint;
  readonly expirationMs: number;
  /** The chain parameters (energy and bandwidth prices), read at most every 10 minutes. */
  params: { value: ChainParams; at: number } | null;
  /** base58 → 20-byte hex, for every address ever watched (deposit addresses never change). */
  readonly hexCache: Map<string, string>;
  /** false once the node answered 404 to /wallet/getblock (java-tron before 4.7). */
  hasGetBlock: boolean;
}

/** Builds the context of the TRON chain (no network I/O). */
export function createTronContext(
  settings: ActiveChain,
  logger: Logger,
  options: TronOptions = {},
): TronContext {
  const identity = { chain: settings.chain, settings, genesis: null as string | null };
  const endpoints = new RpcEndpoints(settings.rpc, logger, {
    timeoutMs: options.timeoutMs,
    check: (url, signal) => checkEndpoint(identity, url, callOn(url, signal)),
  });
  return {
    chain: settings.chain,
    settings,
    logger,
    endpoints,
    http: new TronHttp(endpoints),
    feeLimitCap: options.feeLimitCap ?? DEFAULT_FEE_LIMIT_CAP,
    expirationMs: options.expirationMs ?? DEFAULT_EXPIRATION_MS,
    params: null,
    hexCache: new Map(),
    hasGetBlock: true,
  };
}
