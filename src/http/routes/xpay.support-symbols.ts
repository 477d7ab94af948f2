import { Hono } from 'hono';
import { supportedSymbols } from '../../services/manage-tokens.ts';
import type { HttpContext } from '../context.ts';
import { admitXpayQuery } from '../middleware/xpay-request.ts';
import { isXpayRequest, xpayOk } from '../xpay-envelope.ts';

/**
 * GET /v1/symbol/supportSymbols with `X-API-TOKEN`: the token must be an XPay-mode merchant's (as at
 * XPay), the list is the same public one as the interface's, limited per merchant. The query is
 * checked only when it carries a `sign` (the Java rule): the node SDK sends its filters unsigned,
 * which XPay refuses but Kassa answers, the list being no secret.
 */
export function xpaySupportSymbolsRoute(ctx: HttpContext) {
  return new Hono().get('/v1/symbol/supportSymbols', async (c, next) => {
    if (!isXpayRequest(c)) return next();
    const { query } = await admitXpayQuery(c, ctx, 'supportSymbols', 'when-signed');
    return xpayOk(
      c,
      await supportedSymbols(ctx.deps, {
        chain: query.chain || undefined,
        symbol: query.symbol || undefined,
      }),
    );
  });
}
