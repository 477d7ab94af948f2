import { Hono } from 'hono';
import { MESSAGES, validationError } from '../../domain/errors.ts';
import { createPayout } from '../../services/create-payout.ts';
import { getOrder } from '../../services/get-order.ts';
import type { HttpContext } from '../context.ts';
import { admitXpayPost } from '../middleware/xpay-request.ts';
import { isXpayRequest, xpayOk } from '../xpay-envelope.ts';

/**
 * POST /v1/order/createPayout with `X-API-TOKEN` (XPay's SDKs): XPay's signature and envelope, the
 * same payout as the interface's route, answered in XPay's PaymentAddress, whose `address` is the
 * destination (the interface's is the hot wallet it is sent from) and which carries `uid`, plus
 * the `receiveAddress` and `status` the Java SDK's PayoutData reads.
 */
export function xpayCreatePayoutRoute(ctx: HttpContext) {
  return new Hono().post('/v1/order/createPayout', async (c, next) => {
    if (!isXpayRequest(c)) return next();
    const { merchant, data } = await admitXpayPost(c, ctx, 'createPayout');
    if (!data) throw validationError(MESSAGES.dataBlank);
    const created = await createPayout(ctx.deps, merchant, data);
    const order = await getOrder(ctx.deps, merchant.id, created.orderId);
    return xpayOk(c, {
      address: order.receiveAddress,
      receiveAddress: order.receiveAddress,
      amount: created.amount,
      symbol: created.symbol,
      chain: created.chain,
      uid: order.uid,
      orderId: created.orderId,
      expiredTime: created.expiredTime,
      status: order.status,
    });
  });
}
