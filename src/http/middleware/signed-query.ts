import type { Context } from 'hono';
import { authenticateOrderQuery } from '../../services/authenticate.ts';
import type { Merchant } from '../../services/merchant-directory.ts';
import type { HttpContext, RateLimitName } from '../context.ts';
import { enforceRateLimit } from './rate-limit.ts';

/**
 * Admits a GET signed over the orderId (`sign` = HMAC-SHA256(token, orderId)), then applies the
 * limit `name`: per order for the checkout endpoints, per merchant otherwise.
 */
export function admitSignedQuery(
  c: Context,
  ctx: HttpContext,
  limit: RateLimitName,
  options: { orderId?: string; perOrder: boolean },
): { merchant: Merchant; orderId: string } {
  const admitted = authenticateOrderQuery(ctx.directory, {
    orderId: options.orderId ?? c.req.query('orderId'),
    sign: c.req.query('sign'),
    merchantId: c.req.header('x-merchant-id'),
  });
  const key = options.perOrder ? `${admitted.merchant.id}:${admitted.orderId}` : admitted.merchant.id;
  enforceRateLimit(ctx, limit, key, admitted.merchant.id);
  return admitted;
}
