import type { MiddlewareHandler } from 'hono';
import { newId } from '../../lib/ids.ts';
import type { Logger } from '../../lib/logger.ts';

/** Gives every request an id (`req_…`, echoed in X-Request-Id) and a child logger carrying it. */
export function requestId(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const id = newId('req');
    c.set('requestId' as never, id as never);
    c.set('log' as never, logger.child({ requestId: id }) as never);
    c.header('X-Request-Id', id);
    await next();
  };
}

/** The request's logger (set by requestId). */
export function requestLogger(c: { get: (key: never) => unknown }, fallback: Logger): Logger {
  return (c.get('log' as never) as Logger | undefined) ?? fallback;
}
