import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema/index.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * Opens the SQLite database: WAL (readers never block the writer), foreign keys on, a busy timeout
 * so the API and worker processes can share the file, synchronous=NORMAL (durable across process
 * crashes; a power loss can lose the last transactions but never corrupts).
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return drizzle(sqlite, { schema }) as Db;
}

/** Runs `fn` in one IMMEDIATE transaction (takes the write lock up front, so no upgrade deadlock). */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate();
}
