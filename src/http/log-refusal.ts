import type { Context } from 'hono';
import type { AppError } from '../domain/errors.ts';
import type { Logger } from '../lib/logger.ts';
import { ERROR_TABLE } from './errors.ts';
import { requestLogger } from './middleware/request-id.ts';

/**
 * Logs why a request was not served, on the request's logger: an internal error at error level with
 * its stack (the only case with one); the service being busy or a chain unreachable at warn; a
 * client's mistake (bad input, bad signature, unknown order) at info as `{code, status, msg, path}`
 * without a stack; a rate-limit refusal at debug only (a flood must not flood the log; the
 * failed-authentication limiter warns once per client instead).
 */
export function logRefusal(c: Context, logger: Logger, appError: AppError, error: unknown): void {
  const log = requestLogger(c, logger);
  const status = ERROR_TABLE[appError.code].status;
  const fields = { code: appError.code, status, msg: appError.detail, path: c.req.path };
  if (appError.code === 'internal') log.error({ err: error, path: c.req.path }, 'request failed');
  else if (status >= 500) log.warn(fields, 'request not served');
  else if (appError.code === 'rate_limited') log.debug(fields, 'request refused');
  else log.info(fields, 'request refused');
}
