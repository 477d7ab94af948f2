import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../lib/logger.ts';
import { requestLogger } from './request-id.ts';

/** Probe endpoints, logged at debug so a load balancer polling them does not fill the log. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One access-log line per request, after it is answered: `{method, path, status, ms}` on the
 * request's child logger (so with its requestId), at info (probes at debug). The path never carries
 * the query string, so `sign` and other query values are never logged. Mount after requestId.
 */
export function accessLog(fallback: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const level = PROBES.has(path) ? 'debug' : 'info';
    if (!fallback.isLevelEnabled(level)) return;
    const log = requestLogger(c, fallback);
    log[level](
      {
        method: c.req.method,
        path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}
