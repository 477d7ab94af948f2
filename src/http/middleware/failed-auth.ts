import type { Context } from 'hono';
import { processShare } from '../../config/process-share.ts';
import { AppError, type AppErrorCode } from '../../domain/errors.ts';
import type { HttpContext } from '../context.ts';
import { clientIp, clientKey } from './client-ip.ts';
import { requestLogger } from './request-id.ts';

/** The refusals that count as a failed authentication. */
const FAILURES: ReadonlySet<AppErrorCode> = new Set([
  'invalid_signature',
  'timestamp_window',
  'nonce_reused',
]);

/**
 * Runs `admit` (the authentication of a signed request) under the failed-authentication limit of
 * the client's address (`auth.failedAttempts`, 30 per 60 s by default): an address over it gets 429
 * with Retry-After before `admit` runs, so before the body is read and before any HMAC is computed;
 * a failure `admit` throws is counted. The first refusal of an address in a window is logged at warn.
 * With `api.processes` > 1 this process enforces its share of the limit (config/process-share.ts).
 * Works for synchronous and asynchronous `admit`.
 */
export function underFailedAuthLimit<T>(c: Context, ctx: HttpContext, admit: () => T): T {
  const { windowSeconds } = ctx.deps.config.auth.failedAttempts;
  const limit = processShare(ctx.deps.config, ctx.deps.config.auth.failedAttempts.limit);
  const windowMs = windowSeconds * 1000;
  const ip = clientIp(c, ctx.proxyTrust);
  const key = clientKey(ip);
  const verdict = ctx.authFailures.check(key, limit, windowMs);
  if (!verdict.allowed) {
    if (ctx.authFailures.check(`warned:${key}`, 1, windowMs).allowed) {
      ctx.authFailures.count(`warned:${key}`, windowMs);
      requestLogger(c, ctx.deps.logger).warn(
        { client: ip, limit, windowSeconds, path: c.req.path },
        'too many failed authentications from this client; refusing its signed requests for now',
      );
    }
    throw new AppError('rate_limited', undefined, { retryAfterSeconds: verdict.retryAfterSeconds });
  }
  const failed = (error: unknown) => {
    if (error instanceof AppError && FAILURES.has(error.code)) ctx.authFailures.count(key, windowMs);
    throw error;
  };
  try {
    const result = admit();
    return (result instanceof Promise ? result.catch(failed) : result) as T;
  } catch (error) {
    return failed(error);
  }
}
