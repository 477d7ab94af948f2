import { Hono } from 'hono';
import { createPayout } from '../../services/create-payout.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { admitSignedPost } from '../middleware/signed-post.ts';

/** POST /v1/order/createPayout → R<PaymentAddress> whose address is the hot wallet it is sent from. */
export function createPayoutRoute(ctx: HttpContext) {
  return new Hono().post('/v1/order/createPayout', async (c) => {
    const { merchant, envelope } = await admitSignedPost(c, ctx, 'createPayout');
    return ok(c, await createPayout(ctx.deps, merchant, envelope.data));
  });
}
