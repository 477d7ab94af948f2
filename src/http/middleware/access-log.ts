import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../lib/logger.ts';
import { requestLogger } from './request-id.ts';

/**
 * One access-log line per request, after it is answered: `{method, path, status, ms}` on the
 * request's child logger (so with its requestId), at **debug**: at info the line cost 7–8 % of
 * createCollection throughput (bench/results/startup.md), over the 5 % allowed, so operators turn
 * it on with KASSA_LOG_LEVEL=debug, or rely on their TLS proxy's access log. The path never carries
 * the query string, so `sign` and other query values are never logged. Mount after requestId.
 */
export function accessLog(fallback: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    if (!fallback.isLevelEnabled('debug')) return;
    requestLogger(c, fallback).debug(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}
