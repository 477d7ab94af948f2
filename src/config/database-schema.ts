import { z } from 'zod';

// The `database` section: which engine holds Kassa's records (the SQLite file `db`, or PostgreSQL
// when `url` is set) and how each is reached.

/** The URL schemes of PostgreSQL connection strings (libpq's and node-postgres's). */
const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'];

/** Whether `text` is a PostgreSQL connection URL (postgres:// or postgresql://). */
export function isPostgresUrl(text: string): boolean {
  try {
    return POSTGRES_SCHEMES.includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** A PostgreSQL connection string. The message never repeats the value: it may carry a password. */
const postgresUrl = z.string().refine(isPostgresUrl, {
  message:
    'must be a PostgreSQL URL such as postgres://user:password@host:5432/database (or postgresql://…), from KASSA_DATABASE_URL or the config file; leave it unset to use the SQLite file `db`',
});

export const databaseSchema = z.object({
  /**
   * SQLite: how long a write waits for the write lock held by another process (a `kassa` command,
   * an operator's sqlite3 shell) before the API answers 503; the wait is asynchronous.
   */
  lockWaitMs: z.number().int().min(0).default(5000),
  /**
   * PostgreSQL 15 or newer: `postgres://user:password@host:5432/database` (KASSA_DATABASE_URL).
   * Set, every command runs on it and `db` is not used (except as the source of `kassa db copy`);
   * null, Kassa runs on the SQLite file `db`. A secret (it holds the password): it is logged with
   * the password hidden.
   */
  url: postgresUrl.nullable().default(null),
  /**
   * PostgreSQL: connections each process keeps open at most (KASSA_DATABASE_POOL_SIZE). 10 lets the
   * transactions of concurrent requests overlap their round trips and lock waits (a request holds a
   * connection only for its transaction, a few milliseconds), while 2 API processes, a worker and a
   * few commands stay far below PostgreSQL's default max_connections of 100. Keep pool size ×
   * processes under the server's max_connections (docs/operations.md, "Running on PostgreSQL").
   * At least 2: migrating holds one connection for its lock while it works on another.
   */
  poolSize: z.number().int().min(2).max(1000).default(10),
  /**
   * PostgreSQL: how long opening a connection, or waiting for a free one in the pool, may take
   * before the call fails as `busy` (the API answers 503, retry). A server that refuses is known at
   * once; this bounds the wait on one that never answers (a network partition).
   */
  connectTimeoutMs: z.number().int().min(100).max(600_000).default(5000),
  /**
   * PostgreSQL: how long a query may wait for its answer before its connection is closed and the
   * call fails as `busy`; 0 waits for ever. Kassa's statements take milliseconds: this only ends
   * waits on a server that stopped answering, so a merchant's request is answered (503) instead of
   * held open. Migrations and `kassa db copy` are not limited by it.
   */
  queryTimeoutMs: z.number().int().min(0).max(3_600_000).default(30_000),
});

/** The `database` section as the configuration holds it. */
export type DatabaseConfig = z.infer<typeof databaseSchema>;
