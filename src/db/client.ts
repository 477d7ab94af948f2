import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema/index.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * Opens the SQLite database: WAL (readers never block the writer), foreign keys on, a busy timeout
 * so the API and worker processes can share the file, and synchronous=FULL: every commit reaches the
 * disk before it returns, so what Kassa acknowledged survives a power loss too. With NORMAL the last
 * commits before a power loss could vanish: a signed payout recorded and then broadcast would be
 * signed and sent again after the reboot, and a deposit address handed to a customer would go to the
 * next order. The API's group commit (batched-write.ts) shares one sync among concurrent writes.
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return drizzle(sqlite, { schema }) as Db;
}

/** Runs `fn` in one IMMEDIATE transaction (takes the write lock up front, so no upgrade deadlock). */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate();
}
