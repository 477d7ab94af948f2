import type { ActiveChain } from '../../../config/active-chain.ts';
import { redactUrl } from '../../../lib/logger.ts';
import { ChainError } from '../../errors.ts';
import type { TronCall } from '../http.ts';
import { header, isEmpty } from '../wire.ts';

/**
 * One RPC URL's genesis block, run by the endpoints before the URL's first request (at connect for
 * every URL that answers, and on first use after a fail-over): its id's last 4 bytes must be the
 * configured chain id (when one is), and every URL must serve the genesis of the first one checked.
 * Throws ChainError `wrong_network` otherwise (the chain is then disabled).
 */
export async function checkEndpoint(
  ctx: { readonly chain: string; readonly settings: ActiveChain; genesis: string | null },
  url: string,
  call: TronCall,
): Promise<void> {
  const genesis = await call('/wallet/getblockbynum', { num: 0 });
  const id = isEmpty(genesis) ? '' : header(genesis).id;
  const chainId = Number.parseInt(id.slice(-8) || '0', 16);
  if (ctx.settings.chainId !== undefined && chainId !== ctx.settings.chainId) {
    throw new ChainError(
      'wrong_network',
      `${ctx.chain}: the RPC ${redactUrl(url)} serves chain id ${chainId} (genesis ${id}), but ${ctx.settings.chainId} is configured; the chain is disabled`,
    );
  }
  if (ctx.genesis !== null && id !== ctx.genesis) {
    throw new ChainError(
      'wrong_network',
      `${ctx.chain}: the RPC ${redactUrl(url)} serves another chain (genesis ${id}) than the RPC URLs before it (genesis ${ctx.genesis}); the chain is disabled`,
    );
  }
  ctx.genesis = id;
}
