import { Hono } from 'hono';
import { formatAmount } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import { getOrder } from '../../services/get-order.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { admitSignedQuery } from '../middleware/signed-query.ts';

/** The interface's PayinOrderVo. */
export function toPayinOrder(order: Order) {
  return {
    orderId: order.orderId,
    chain: order.chain,
    symbol: order.symbol,
    address: order.address,
    amount: order.amount,
    actualAmount:
      order.actualAmountBase === null ? null : formatAmount(order.actualAmountBase, order.decimals),
    expiredTime: Math.floor(order.expiresAt / 1000),
    status: order.status,
    reason: order.reason,
  };
}

/**
 * GET /v1/order/pay?orderId=…&sign=… → R<PayinOrderVo>, with the merchant's sign or the order's
 * checkout link sign, under the order's own limit.
 */
export function orderPayRoute(ctx: HttpContext) {
  return new Hono().get('/v1/order/pay', async (c) => {
    const { merchant, orderId } = await admitSignedQuery(c, ctx, 'pay', {
      perOrder: true,
      accept: ['merchant', 'checkout'],
    });
    return ok(c, toPayinOrder(await getOrder(ctx.deps, merchant.id, orderId)));
  });
}
