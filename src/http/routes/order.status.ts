import { Hono } from 'hono';
import { toNotifyOrder } from '../../domain/notify-order.ts';
import { getOrder } from '../../services/get-order.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { admitSignedQuery } from '../middleware/signed-query.ts';

/**
 * GET /v1/order/status/{orderId}?sign=… → R<NotifyOrder>, only for the merchant whose token signs
 * (never with a checkout link's sign: that one belongs to the customer), under the merchant's limit.
 */
export function orderStatusRoute(ctx: HttpContext) {
  return new Hono().get('/v1/order/status/:orderId', async (c) => {
    const { merchant, orderId } = await admitSignedQuery(c, ctx, 'status', {
      orderId: c.req.param('orderId'),
      perOrder: false,
      accept: ['merchant'],
    });
    return ok(c, toNotifyOrder(await getOrder(ctx.deps, merchant.id, orderId)));
  });
}
