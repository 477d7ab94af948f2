import { Hono } from 'hono';
import { validationError } from '../../domain/errors.ts';
import type { HttpContext } from '../context.ts';
import { admitXpayQuery } from '../middleware/xpay-request.ts';

/** XPay's answer to a merchant without permanent per-user addresses; Kassa gives every order its own. */
export const NO_USER_ADDRESSES = 'Address acquisition is not supported.';

/**
 * GET /v1/merchant/getCryptoAddress (XPay's form, signed query; counted against the getBalance
 * limit): a permanent address per user exists at XPay only for merchants in its USER address mode,
 * which Kassa does not have (a fresh address per order, never reused), so once authenticated the
 * answer is XPay's own refusal for such merchants.
 */
export function xpayGetCryptoAddressRoute(ctx: HttpContext) {
  return new Hono().get('/v1/merchant/getCryptoAddress', async (c) => {
    await admitXpayQuery(c, ctx, 'getBalance', 'always');
    throw validationError(NO_USER_ADDRESSES);
  });
}
