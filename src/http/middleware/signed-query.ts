import type { Context } from 'hono';
import { authenticateOrderQuery, type SignPurpose } from '../../services/authenticate.ts';
import type { Merchant } from '../../services/merchant-directory.ts';
import type { HttpContext, RateLimitName } from '../context.ts';
import { underFailedAuthLimit } from './failed-auth.ts';
import { enforceRateLimit } from './rate-limit.ts';

/**
 * Admits a GET signed over the orderId with one of the signs `accept` names (the merchant's, or
 * the checkout link's), under the client's failed-authentication limit, then applies the limit
 * `name`: per order for the endpoints a checkout page uses, per merchant otherwise.
 */
export async function admitSignedQuery(
  c: Context,
  ctx: HttpContext,
  limit: RateLimitName,
  options: { orderId?: string; perOrder: boolean; accept: readonly SignPurpose[] },
): Promise<{ merchant: Merchant; orderId: string; purpose: SignPurpose }> {
  const admitted = await underFailedAuthLimit(c, ctx, () =>
    authenticateOrderQuery(ctx.directory, {
      orderId: options.orderId ?? c.req.query('orderId'),
      sign: c.req.query('sign'),
      merchantId: c.req.header('x-merchant-id'),
      accept: options.accept,
    }),
  );
  const key = options.perOrder ? `${admitted.merchant.id}:${admitted.orderId}` : admitted.merchant.id;
  enforceRateLimit(ctx, limit, key, admitted.merchant.id);
  return admitted;
}
