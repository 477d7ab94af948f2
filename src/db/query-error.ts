import { DrizzleQueryError } from 'drizzle-orm';

/**
 * drizzle wraps a failed query in DrizzleQueryError, whose message and `params` repeat the query's
 * values: sealed merchant secrets, password hashes, addresses. At the Store's edge such an error
 * becomes a plain one with the driver's own message (it names the problem and the constraint, never
 * the values) and its code (SQLSTATE on PostgreSQL, SQLITE_* on SQLite), so no log line, response or
 * error text can carry them. The driver's other fields (PostgreSQL's `detail` quotes key values) are
 * left behind with the wrapper.
 */
export function withoutQueryValues(error: unknown): unknown {
  if (!(error instanceof DrizzleQueryError)) return error;
  const driver = error.cause as { message?: unknown; code?: unknown; name?: unknown } | undefined;
  const plain = new Error(typeof driver?.message === 'string' ? driver.message : 'A database query failed.');
  if (typeof driver?.name === 'string') plain.name = driver.name;
  if (typeof driver?.code === 'string') Object.assign(plain, { code: driver.code });
  return plain;
}

type StoreFunction = (...args: unknown[]) => Promise<unknown>;

/** `store` (any object of async functions) with every rejection passed through `map` (withoutQueryValues by default). */
export function mapRejections<T extends object>(
  store: T,
  map: (error: unknown) => unknown = withoutQueryValues,
): T {
  const out: Record<string, StoreFunction> = {};
  for (const [name, fn] of Object.entries(store as unknown as Record<string, StoreFunction>)) {
    out[name] = (...args) => {
      try {
        return fn(...args).catch((error: unknown) => {
          throw map(error);
        });
      } catch (error) {
        return Promise.reject(map(error));
      }
    };
  }
  return out as unknown as T;
}
