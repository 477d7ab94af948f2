import type { ActiveChain } from '../../../config/active-chain.ts';
import { redactUrl } from '../../../lib/logger.ts';
import { ChainError } from '../../errors.ts';
import { jsonRpcCall } from '../../rpc/json-rpc.ts';

/**
 * One RPC URL's chain id against the configured one, run by the endpoints before the URL's first
 * request (at connect for every URL that answers, and on first use after a fail-over). Throws
 * ChainError `wrong_network` for a URL that serves another chain (the chain is then disabled).
 */
export async function checkEndpoint(settings: ActiveChain, url: string, signal: AbortSignal): Promise<void> {
  if (settings.chainId === undefined) return;
  const id = Number(BigInt(await jsonRpcCall<string>(url, 'eth_chainId', [], signal)));
  if (id !== settings.chainId) {
    throw new ChainError(
      'wrong_network',
      `${settings.chain}: the RPC ${redactUrl(url)} serves chain id ${id}, but ${settings.chainId} is configured; the chain is disabled`,
    );
  }
}
