import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { AppError } from '../../domain/errors.ts';
import * as schema from './schema/index.ts';
import { timedClient } from './timed-client.ts';

/** The PostgreSQL database (drizzle over a node-postgres pool), as the PostgreSQL store holds it. */
export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A transaction handed to pgTransaction's callback. */
export type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0];
/** Where a repository function runs its statements: the pool, or the caller's transaction. */
export type PgExecutor = PgDb | PgTx;

export interface PgOpenOptions {
  /** Connections in the pool (config `database.poolSize`). */
  max?: number;
  /** Shown in pg_stat_activity, to tell Kassa's processes apart. */
  applicationName?: string;
  /** How long a statement may run before PostgreSQL cancels it (ms); 0 = no limit. */
  statementTimeoutMs?: number;
  /**
   * How long opening a connection, or waiting for a free one in the pool, may take before the call
   * fails as unreachable (ms; default 5000). Without it, a server that never answers (a network
   * partition drops packets instead of refusing them) holds every caller until the OS gives up.
   */
  connectTimeoutMs?: number;
  /**
   * How long a query may wait for its answer before its connection is closed and the call fails as
   * unreachable (ms; 0 or unset = for ever, for migrations and `kassa db copy`): timedClient.
   */
  queryTimeoutMs?: number;
  /**
   * How long PostgreSQL keeps a transaction open while its client says nothing (ms; default 60000;
   * 0 = for ever): a transaction cut off by a partition gives back its row locks after this long.
   */
  idleInTransactionMs?: number;
}

const INT8 = 20;

/**
 * int8 (bigint) values are epoch milliseconds, counts, block heights and indexes, all far below
 * 2^53, so they are read as numbers (node-postgres reads them as strings by default). Money is never
 * int8: it is TEXT in base units, exactly as on SQLite. Set on pg's global parsers because drizzle
 * passes its own parser table with every query and falls back to the global one: a pool-level table
 * would miss raw `sql` results such as count(*) and max().
 */
pg.types.setTypeParser(INT8, (value: string) => Number(value));

/**
 * Opens a pool on `url` (postgres://user:password@host:port/database). Nothing connects until the
 * first query. The password is never logged: describeUrl gives the printable form.
 */
export function openPg(url: string, options: PgOpenOptions = {}): PgDb {
  const queryTimeoutMs = options.queryTimeoutMs ?? 0;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'kassa',
    statement_timeout: options.statementTimeoutMs ?? 0,
    idle_in_transaction_session_timeout: options.idleInTransactionMs ?? 60_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // an idle connection to a peer that vanished is found by the kernel, not left for a query to hit
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(queryTimeoutMs > 0 ? { Client: timedClient(queryTimeoutMs) } : {}),
  });
  // A connection that the server drops (restart, failover, a partition's timeout) must not crash
  // the process. Idle, the pool hears of it and discards it; checked out for a transaction, node-
  // postgres emits the error on the client, which nobody listens to (unheard, Node throws it): the
  // statements under way fail with it anyway, and the pool discards the client on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return drizzle(pool, { schema }) as PgDb;
}

/** `url` with its password hidden, for logs and errors. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

export type Isolation = 'read committed' | 'repeatable read' | 'serializable';

/** SQLSTATEs after which the whole transaction may simply run again: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 8;

/** The SQLSTATE of a PostgreSQL error, or null. */
export function sqlState(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && cause !== error ? sqlState(cause) : null;
}

/** Whether `error` is a unique violation (of `constraint`, when given). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== '23505') return false;
  if (!constraint) return true;
  const found = findPgError(error)?.constraint;
  return found === constraint;
}

function findPgError(error: unknown): { constraint?: string } | null {
  if (error instanceof pg.DatabaseError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && cause !== error ? findPgError(cause) : null;
}

/**
 * Runs `fn` in one transaction at `isolation` (read committed unless said otherwise) and commits it,
 * or rolls it back when `fn` throws. A serialization failure or a deadlock runs the whole `fn` again
 * (it must not have effects outside the transaction), up to 8 times with a short random pause. A
 * database that cannot be reached (or stops answering) becomes `busy` (503): nothing was written,
 * unless the connection was lost while its COMMIT was on the way, which leaves it unknown (as with
 * any database over a network; a merchant's retry of a creation finds the order by its orderId).
 */
export async function pgTransaction<T>(
  db: PgDb,
  fn: (tx: PgTx) => Promise<T>,
  isolation: Isolation = 'read committed',
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn, { isolationLevel: isolation });
    } catch (error) {
      const state = sqlState(error);
      if (state && RETRYABLE.has(state) && attempt < MAX_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        continue;
      }
      throw asUnavailable(error);
    }
  }
}

/** Node's socket errors that mean the server could not be reached or went away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether `error` (or an error it wraps: drizzle wraps the driver's as `cause`) says the server
 * could not be reached, dropped the connection or did not answer in time: a socket error,
 * node-postgres's "Connection terminated", "not queryable" or pool timeout, or SQLSTATE class 08 /
 * 57P01 / 57P03 (the server shutting down or starting up).
 */
function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (SOCKET_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P03')
  )
    return true;
  // node-postgres's own words for a connection lost, one never made, a pool with none free in time,
  // and a statement on a lost connection (drizzle's ROLLBACK after one: it replaces the first error)
  if (
    /^Connection terminated|^timeout exceeded when trying to connect|is not queryable$/.test(
      String((error as { message?: unknown }).message),
    )
  )
    return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== error && isConnectionFailure(cause, depth + 1);
}

/** Connection failures (refused, reset, the server shutting down) become `busy`; anything else is unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof AppError) return error;
  return isConnectionFailure(error)
    ? new AppError('busy', 'The database cannot be reached or did not answer in time; retry.', {
        cause: error,
      })
    : error;
}

/** Closes the pool (waits for checked-out connections to be released). */
export async function closePg(db: PgDb): Promise<void> {
  await db.$client.end();
}

/**
 * Runs `fn` inside the caller's transaction when `ex` is one (its isolation applies), or in a new
 * transaction at `isolation` when `ex` is the pool: what a repository function that may be called
 * alone or as part of a larger write (a transition inside a scan step) uses.
 */
export function inTransaction<T>(
  ex: PgExecutor,
  fn: (tx: PgTx) => Promise<T>,
  isolation: Isolation = 'read committed',
): Promise<T> {
  if (ex instanceof PgTransaction) return fn(ex as PgTx);
  return pgTransaction(ex as PgDb, fn, isolation);
}
