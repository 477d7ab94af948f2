import { processShare } from '../../config/process-share.ts';
import type { RateLimitName } from '../../config/schema.ts';
import { AppError } from '../../domain/errors.ts';
import type { HttpContext } from '../context.ts';

/**
 * Counts one request against the limit `name` (per merchant when `merchantId` is given, with the
 * merchant's override from config) under `key`; throws 429 with Retry-After when it is over. The
 * count is this process's: with `api.processes` > 1 it enforces its share (config/process-share.ts).
 */
export function enforceRateLimit(
  ctx: HttpContext,
  name: RateLimitName,
  key: string,
  merchantId?: string,
): void {
  const limits = ctx.deps.config.rateLimits;
  const rule = (merchantId ? limits.merchants[merchantId]?.[name] : undefined) ?? limits[name];
  const limit = processShare(ctx.deps.config, rule.limit);
  const verdict = ctx.limiter.hit(`${name}:${key}`, limit, rule.windowSeconds * 1000);
  if (!verdict.allowed)
    throw new AppError('rate_limited', undefined, { retryAfterSeconds: verdict.retryAfterSeconds });
}
