import { Hono } from 'hono';
import { createCollection } from '../../services/create-collection.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { admitSignedPost } from '../middleware/signed-post.ts';

/** POST /v1/order/createCollection → R<PaymentAddress> with a fresh deposit address and paymentUrl. */
export function createCollectionRoute(ctx: HttpContext) {
  return new Hono().post('/v1/order/createCollection', async (c) => {
    const { merchant, envelope } = await admitSignedPost(c, ctx, 'createCollection');
    return ok(c, await createCollection(ctx.deps, merchant, envelope.data));
  });
}
