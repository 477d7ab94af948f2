import { Hono } from 'hono';
import { MESSAGES, validationError } from '../../domain/errors.ts';
import { createCollection } from '../../services/create-collection.ts';
import type { HttpContext } from '../context.ts';
import { admitXpayPost } from '../middleware/xpay-request.ts';
import { isXpayRequest, xpayOk } from '../xpay-envelope.ts';

/**
 * POST /v1/order/createCollection with `X-API-TOKEN` (XPay's SDKs): XPay's signature and envelope,
 * the same order and PaymentAddress as the interface's route. Other requests go on to that route.
 */
export function xpayCreateCollectionRoute(ctx: HttpContext) {
  return new Hono().post('/v1/order/createCollection', async (c, next) => {
    if (!isXpayRequest(c)) return next();
    const { merchant, data } = await admitXpayPost(c, ctx, 'createCollection');
    if (!data) throw validationError(MESSAGES.dataBlank);
    return xpayOk(c, await createCollection(ctx.deps, merchant, data));
  });
}
