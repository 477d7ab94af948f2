import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError } from '../domain/errors.ts';
import { ERROR_TABLE } from './errors.ts';

/** The R<T> envelope of a success. */
export function ok<T>(c: Context, data: T) {
  return c.json({ code: 200, msg: 'success', data });
}

/**
 * The R<T> envelope of an error: `code` mirrors the status, `data` is null. Errors the table marks
 * (validation, payout refusals) carry their exact message; everything else takes the table's
 * message (internals are logged, never returned).
 */
export function fail(c: Context, error: AppError) {
  const entry = ERROR_TABLE[error.code];
  const msg = entry.detail ? (error.detail ?? entry.msg) : entry.msg;
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  return c.json({ code: entry.status, msg, data: null }, entry.status as ContentfulStatusCode);
}

/**
 * Turns anything thrown into an AppError: SQLite's "database is locked" from a write that could not
 * wait asynchronously becomes `busy` (503, retry); any other unknown error becomes `internal`.
 */
export function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))
    return new AppError('busy', undefined, { cause: error });
  return new AppError('internal', undefined, { cause: error });
}
