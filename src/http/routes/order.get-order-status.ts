import { Hono } from 'hono';
import { getOrder } from '../../services/get-order.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { admitSignedQuery } from '../middleware/signed-query.ts';

/**
 * GET /v1/order/getOrderStatus?orderId=…&sign=… → R<{status}> for lightweight polling, with the
 * merchant's sign or the order's checkout link sign, under the order's own limit.
 */
export function getOrderStatusRoute(ctx: HttpContext) {
  return new Hono().get('/v1/order/getOrderStatus', async (c) => {
    const { merchant, orderId } = await admitSignedQuery(c, ctx, 'getOrderStatus', {
      perOrder: true,
      accept: ['merchant', 'checkout'],
    });
    const order = await getOrder(ctx.deps, merchant.id, orderId);
    return ok(c, { status: order.status });
  });
}
