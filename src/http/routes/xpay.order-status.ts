import { Hono } from 'hono';
import { AppError } from '../../domain/errors.ts';
import { toNotifyOrder } from '../../domain/notify-order.ts';
import { toXpayNotifyOrder } from '../../domain/xpay-notify-order.ts';
import { getOrder } from '../../services/get-order.ts';
import type { HttpContext } from '../context.ts';
import { admitXpayQuery } from '../middleware/xpay-request.ts';
import { isXpayRequest, xpayOk } from '../xpay-envelope.ts';

/**
 * GET /v1/order/status/{orderId} with `X-API-TOKEN` (how both XPay SDKs call it: the token alone;
 * with any query parameter the query must be signed, as at XPay) → XPay's NotifyOrder, and only
 * ever an order of the token's own merchant (XPay itself looks orders up across merchants).
 */
export function xpayOrderStatusRoute(ctx: HttpContext) {
  return new Hono().get('/v1/order/status/:orderId', async (c, next) => {
    if (!isXpayRequest(c)) return next();
    const { merchant } = await admitXpayQuery(c, ctx, 'status', 'when-any-param');
    const orderId = c.req.param('orderId');
    const order = await getOrder(ctx.deps, merchant.id, orderId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'order_not_found')
        throw new AppError('order_not_found', `Order not found ${orderId}`);
      throw error;
    });
    return xpayOk(
      c,
      toXpayNotifyOrder(toNotifyOrder(order), { decimals: order.decimals, contract: order.tokenContract }),
    );
  });
}
