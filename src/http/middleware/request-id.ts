import type { MiddlewareHandler } from 'hono';
import { newId } from '../../lib/ids.ts';
import type { Logger } from '../../lib/logger.ts';

/**
 * Gives every request an id (`req_…`, echoed in X-Request-Id). The child logger carrying it is made
 * only when something is logged (see requestLogger), not on every request.
 */
export function requestId(_logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const id = newId('req');
    c.set('requestId' as never, id as never);
    c.header('X-Request-Id', id);
    await next();
  };
}

/** The request's logger: `fallback` with the request id bound (made on first use, then reused). */
export function requestLogger(
  c: { get: (key: never) => unknown; set: (key: never, value: never) => void },
  fallback: Logger,
): Logger {
  const existing = c.get('log' as never) as Logger | undefined;
  if (existing) return existing;
  const id = c.get('requestId' as never) as string | undefined;
  if (!id) return fallback;
  const child = fallback.child({ requestId: id });
  c.set('log' as never, child as never);
  return child;
}
