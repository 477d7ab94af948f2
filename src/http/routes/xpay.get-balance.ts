import { Hono } from 'hono';
import { getXpayBalance } from '../../services/get-xpay-balance.ts';
import type { HttpContext } from '../context.ts';
import { admitXpayQuery } from '../middleware/xpay-request.ts';
import { xpayOk } from '../xpay-envelope.ts';

/**
 * GET /v1/merchant/getBalance?symbol=…&timestamp=…&nonce=…&sign=… (XPay's form, signed query) →
 * XPay's MerchantAssetsVo of that symbol from the merchant ledger. Only XPay has this GET: without
 * `X-API-TOKEN` it is refused XPay's way. The interface's form is the POST.
 */
export function xpayGetBalanceRoute(ctx: HttpContext) {
  return new Hono().get('/v1/merchant/getBalance', async (c) => {
    const { merchant, query } = await admitXpayQuery(c, ctx, 'getBalance', 'always');
    return xpayOk(c, await getXpayBalance(ctx.deps, merchant, { symbol: query.symbol, chain: query.chain }));
  });
}
