import { ChainError } from '../../errors.ts';
import { toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { header, isEmpty } from '../wire.ts';
import { latestBlock } from './latest-block.ts';

/**
 * Checks the node: it answers, its genesis carries the configured chain id, and every configured
 * TRC-20 contract exists there. Throws ChainError `wrong_network` otherwise (the chain is disabled).
 */
export async function connect(ctx: TronContext): Promise<void> {
  await latestBlock(ctx, { view: 'head' });
  if (ctx.settings.chainId !== undefined) {
    const genesis = await ctx.http.call('/wallet/getblockbynum', { num: 0 });
    const id = isEmpty(genesis) ? '' : header(genesis).id;
    const chainId = Number.parseInt(id.slice(-8) || '0', 16);
    if (chainId !== ctx.settings.chainId) {
      throw new ChainError(
        'wrong_network',
        `${ctx.chain}: the RPC serves chain id ${chainId} (genesis ${id}), but ${ctx.settings.chainId} is configured; the chain is disabled`,
      );
    }
  }
  for (const token of ctx.settings.tokens) {
    if (token.contract === null) continue;
    let hex: string;
    try {
      hex = toHex41(token.contract);
    } catch {
      throw new ChainError(
        'wrong_network',
        `${ctx.chain}: ${token.symbol} contract ${token.contract} is not a TRON address`,
      );
    }
    if (isEmpty(await ctx.http.call('/wallet/getcontract', { value: hex }))) {
      throw new ChainError(
        'wrong_network',
        `${ctx.chain}: ${token.symbol} contract ${token.contract} does not exist on this RPC; is it on the configured network? The chain is disabled`,
      );
    }
  }
}
