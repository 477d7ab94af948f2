import { existsSync } from 'node:fs';
import type pg from 'pg';
import { AppError } from '../domain/errors.ts';
import type { Db } from './client.ts';
import { openDatabase } from './client.ts';
import { type CopyTable, copyRows, copyTables, quote } from './copy-rows.ts';
import { hasPendingMigrations, isNewDatabase } from './migrate.ts';
import { closePg, describeUrl, openPg, type PgDb } from './pg/client.ts';
import { applyPgMigrations, hasPendingPgMigrations } from './pg/migrate.ts';
import { reachPg } from './pg/reach.ts';

// `kassa db copy --to URL`: an existing SQLite database into an empty PostgreSQL one, every table in
// one PostgreSQL transaction, every value as it was, verified by counting.

/** Why a copy was refused, said to the operator as it is (exit 1); nothing was written. */
function refused(message: string): AppError {
  return new AppError('state_conflict', message);
}

export interface CopyReport {
  /** The SQLite file and the PostgreSQL URL (password hidden). */
  from: string;
  to: string;
  /** Rows per table, counted in PostgreSQL after the copy and equal to SQLite's count. */
  tables: { table: string; rows: number }[];
  total: number;
}

/** A pool or one of its clients. */
type Queryable = Pick<pg.ClientBase, 'query'>;

/** How long the copy waits for a lock on a PostgreSQL table another session uses before giving up. */
const LOCK_TIMEOUT = '10s';

/**
 * Copies the SQLite database at `path` into the PostgreSQL database at `url`: refuses a missing,
 * unmigrated or out-of-date SQLite file, a PostgreSQL database that holds any row or tables that are
 * not Kassa's; migrates the target when it is new; then copies every table inside one transaction
 * (all of it or nothing), moves identity sequences past the copied ids and checks each table's row
 * count against SQLite's before committing. SQLite's write lock is held throughout, so a Kassa
 * still running on it cannot write meanwhile (stop it first: writes after the copy are not copied).
 */
export async function copySqliteFileToPg(path: string, url: string): Promise<CopyReport> {
  if (path === ':memory:' || !existsSync(path)) throw refused(`there is no SQLite database at ${path}`);
  const sqlite = openDatabase(path, { lockWait: 'blocking', lockWaitMs: 2000 });
  // one long transaction that reads SQLite between its statements: no query or idle limit
  const target = openPg(url, { max: 2, applicationName: 'kassa db copy', idleInTransactionMs: 0 });
  try {
    await reachPg(target, url);
    return await copySqliteToPg(sqlite, target, { from: path, to: describeUrl(url) });
  } finally {
    sqlite.$client.close();
    await closePg(target);
  }
}

/** The copy itself, on open handles (copySqliteFileToPg opens and closes them). */
export async function copySqliteToPg(
  sqlite: Db,
  target: PgDb,
  names: { from: string; to: string },
): Promise<CopyReport> {
  if (isNewDatabase(sqlite)) throw refused(`${names.from} is not a Kassa database (it has no tables)`);
  if (hasPendingMigrations(sqlite))
    throw refused(
      `${names.from} needs migrations first: back it up, run \`kassa migrate\` on it (without KASSA_DATABASE_URL), then copy`,
    );
  const tables = copyTables();
  checkSameTables(sqlite, tables, names.from);
  await refuseUnlessEmpty(target, tables, names.to);
  await applyPgMigrations(target);
  if (await hasPendingPgMigrations(target)) throw refused(`${names.to} could not be migrated`);

  const client = await target.$client.connect();
  try {
    // Taken before anything is read: SQLite's snapshot is the copy's, and nothing writes after it.
    holdSqliteWriteLock(sqlite, names.from);
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    await lockTables(client, tables, names.to);
    await refuseRows(client, tables, names.to);
    const counted: CopyReport['tables'] = [];
    for (const table of tables) {
      const expected = countSqlite(sqlite, table.name);
      const written = await copyRows(sqlite.$client, client, table).catch((error: unknown) => {
        throw new AppError(
          'internal',
          `copying ${table.name} failed, nothing was copied: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      });
      const found = await countPg(client, table.name);
      if (written !== expected || found !== expected)
        throw new AppError(
          'internal',
          `${table.name}: SQLite has ${expected} rows, PostgreSQL ${found}; nothing was copied`,
        );
      await moveIdentities(client, table);
      counted.push({ table: table.name, rows: found });
    }
    await client.query('COMMIT');
    return { ...names, tables: counted, total: counted.reduce((n, t) => n + t.rows, 0) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
    if (sqlite.$client.inTransaction) sqlite.$client.exec('ROLLBACK');
  }
}

/** SQLite's tables and columns are PostgreSQL's: the same Kassa version made both schemas. */
function checkSameTables(sqlite: Db, tables: CopyTable[], from: string): void {
  const present = sqlite.$client
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'",
    )
    .pluck()
    .all() as string[];
  const expected = new Set(tables.map((t) => t.name));
  const extra = present.filter((name) => !expected.has(name));
  const missing = tables.filter((t) => !present.includes(t.name)).map((t) => t.name);
  if (extra.length > 0 || missing.length > 0)
    throw refused(
      `${from} does not have the tables this version of Kassa copies (${[...missing.map((m) => `missing ${m}`), ...extra.map((e) => `unknown ${e}`)].join(', ')})`,
    );
  for (const table of tables) {
    const columns = new Set(
      (sqlite.$client.prepare(`PRAGMA table_info(${quote(table.name)})`).all() as { name: string }[]).map(
        (c) => c.name,
      ),
    );
    const wanted = table.columns.map((c) => c.name);
    if (columns.size !== wanted.length || wanted.some((c) => !columns.has(c)))
      throw refused(`${from}: the columns of ${table.name} are not the ones this version of Kassa copies`);
  }
}

/**
 * Refuses a target that holds any row in Kassa's tables (a second copy, or a database in use), or
 * tables that are not Kassa's (someone else's database): before anything, migrations included, is
 * done to it.
 */
async function refuseUnlessEmpty(target: PgDb, tables: CopyTable[], to: string): Promise<void> {
  const result = await target.$client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
  );
  const ours = new Set(tables.map((t) => t.name));
  const foreign = result.rows.map((r) => r.name).filter((name) => !ours.has(name));
  if (foreign.length > 0)
    throw refused(
      `${to} holds tables that are not Kassa's (${foreign.slice(0, 5).join(', ')}): give Kassa a database of its own (CREATE DATABASE kassa)`,
    );
  const existing = tables.filter((t) => result.rows.some((r) => r.name === t.name));
  await refuseRows(target.$client, existing, to);
}

async function refuseRows(client: Queryable, tables: CopyTable[], to: string): Promise<void> {
  const filled: string[] = [];
  for (const table of tables) {
    const r = await client.query(`SELECT EXISTS (SELECT 1 FROM ${quote(table.name)}) AS filled`);
    if (r.rows[0]?.filled) filled.push(table.name);
  }
  if (filled.length > 0)
    throw refused(
      `${to} already holds Kassa's data (rows in ${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', …' : ''}): kassa db copy fills only an empty database. Nothing was copied.`,
    );
}

/**
 * Takes every table for the transaction, so nothing else (a Kassa already started on the target)
 * writes while it is filled; a session that holds one makes the copy give up after LOCK_TIMEOUT.
 */
async function lockTables(client: pg.ClientBase, tables: CopyTable[], to: string): Promise<void> {
  try {
    await client.query(`LOCK TABLE ${tables.map((t) => quote(t.name)).join(', ')} IN ACCESS EXCLUSIVE MODE`);
  } catch (error) {
    if ((error as { code?: string }).code !== '55P03') throw error;
    throw refused(
      `another session is using ${to} (waited ${LOCK_TIMEOUT} for its tables): stop every Kassa process on it, then copy again`,
    );
  }
}

/**
 * BEGIN IMMEDIATE on the SQLite file: the reads that follow see one moment, and no other process
 * writes until the copy ends. A lock already held means a Kassa (or a sqlite3 shell) is writing.
 */
function holdSqliteWriteLock(sqlite: Db, from: string): void {
  try {
    sqlite.$client.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw refused(
      `another process is writing to ${from}: stop Kassa (start, api, worker) and any sqlite3 shell on it, then copy`,
    );
  }
}

function countSqlite(sqlite: Db, table: string): number {
  return sqlite.$client
    .prepare(`SELECT count(*) FROM ${quote(table)}`)
    .pluck()
    .get() as number;
}

async function countPg(client: pg.ClientBase, table: string): Promise<number> {
  const r = await client.query(`SELECT count(*) AS n FROM ${quote(table)}`);
  return Number(r.rows[0]?.n);
}

/** Sets each identity column's sequence past the largest copied value, so new rows get new ids. */
async function moveIdentities(client: pg.ClientBase, table: CopyTable): Promise<void> {
  for (const column of table.columns.filter((c) => c.identity)) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${quote(column.name)}), 0) + 1, false) FROM ${quote(table.name)}`,
      [quote(table.name), column.name],
    );
  }
}
