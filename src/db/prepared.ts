import type { Db } from './client.ts';

const caches = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement built once per database and reused: drizzle's query building costs far more than
 * SQLite's execution on a small VPS (about 0.5 ms per query here), so hot paths prepare with
 * placeholders. `key` must be unique per statement.
 */
export function prepared<T>(db: Db, key: string, build: () => T): T {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build();
    cache.set(key, statement);
  }
  return statement;
}
