import { redactUrl } from '../../../lib/logger.ts';
import { ChainError } from '../../errors.ts';
import type { SuiRpc } from '../grpc.ts';

/**
 * One RPC URL's chain id (the genesis checkpoint's digest), run by the endpoints before the URL's
 * first request (at connect for every URL that answers, and on first use after a fail-over): every
 * URL must serve the chain id of the first one checked. Throws ChainError `wrong_network` otherwise
 * (the chain is then disabled).
 */
export async function checkEndpoint(
  identity: { readonly chain: string; chainId: string | null },
  rpc: SuiRpc,
  url: string,
  signal: AbortSignal,
): Promise<void> {
  const info = await rpc.runOn(url, signal, (c, o) => c.ledgerService.getServiceInfo({}, o).response);
  const id = info.chainId ?? '';
  if (identity.chainId !== null && id !== identity.chainId) {
    throw new ChainError(
      'wrong_network',
      `${identity.chain}: the RPC ${redactUrl(url)} serves chain id ${id}${info.chain ? ` (${info.chain})` : ''}, but the RPC URLs before it serve ${identity.chainId}; the chain is disabled`,
    );
  }
  identity.chainId = id;
}
