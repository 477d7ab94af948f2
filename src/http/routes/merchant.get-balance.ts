import { Hono } from 'hono';
import { getMerchantBalance } from '../../services/get-balance.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { admitSignedPost } from '../middleware/signed-post.ts';

/**
 * POST /v1/merchant/getBalance, signed like every POST, `data` `{chain?, symbol?}` →
 * R<[{chain, symbol, balance, frozenBalance, totalBalance, updateTime}]> of the signing merchant.
 */
export function getBalanceRoute(ctx: HttpContext) {
  return new Hono().post('/v1/merchant/getBalance', async (c) => {
    const { merchant, envelope } = await admitSignedPost(c, ctx, 'getBalance');
    return ok(c, await getMerchantBalance(ctx.deps, merchant, envelope.data));
  });
}
