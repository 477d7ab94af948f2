import { ChainError } from '../../errors.ts';
import { toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { isEmpty } from '../wire.ts';
import { latestBlock } from './latest-block.ts';

/**
 * Checks the node: every RPC URL that answers serves the configured chain (check-endpoint.ts; the
 * others are checked before their first use), and every configured TRC-20 contract exists there. Throws ChainError `wrong_network` otherwise (the chain is disabled).
 */
export async function connect(ctx: TronContext): Promise<void> {
  await ctx.endpoints.checkAll();
  await latestBlock(ctx, { view: 'head' });
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
