import type { TronContext } from '../context.ts';
import { type TronCall, TronNodeError } from '../http.ts';
import { header } from '../wire.ts';

/**
 * The latest block header of the head or the solidified view: `getblock {detail: false}` (a
 * header only; getnowblock carries every transaction of a busy mainnet block), or getnowblock on
 * a node without getblock (java-tron before 4.7). `call` pins the reads to one endpoint.
 */
export async function latestBlock(
  ctx: TronContext,
  args: { view: 'head' | 'solid'; call?: TronCall },
): Promise<ReturnType<typeof header>> {
  const call: TronCall = args.call ?? ((p, b) => ctx.http.call(p, b));
  const prefix = args.view === 'head' ? '/wallet' : '/walletsolidity';
  if (ctx.hasGetBlock) {
    try {
      return header(await call(`${prefix}/getblock`, { detail: false }));
    } catch (error) {
      if (!(error instanceof TronNodeError && error.status === 404)) throw error;
      ctx.hasGetBlock = false;
      ctx.logger.info('this node has no /wallet/getblock; reading blocks with getnowblock and getblockbynum');
    }
  }
  return header(await call(`${prefix}/getnowblock`));
}
