import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { AppError } from '../domain/errors.ts';
import * as schema from './schema/index.ts';
import {
  busyError,
  configureLockWait,
  isLockedError,
  type LockWait,
  lockWaitMsOf,
  noteLockHeldElsewhere,
  whenWriteLockFree,
} from './write-lock.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** What openDatabase found and did about file permissions, for the caller to log. */
export interface PermissionReport {
  /** The data folder's mode was tightened from this (octal text), or null. */
  tightenedFolder: string | null;
  /** The data folder is readable by others and could not be tightened (not its owner). */
  looseFolder: string | null;
}

export interface OpenOptions {
  /** `async` for servers (the event loop stays free; see write-lock.ts); `blocking` for commands. */
  lockWait?: LockWait;
  /** How long a write waits for a lock held by another process in all (config `database.lockWaitMs`). */
  lockWaitMs?: number;
  /** Told what was done about the data folder's permissions. */
  onPermissions?: (report: PermissionReport & { folder: string }) => void;
}

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/**
 * Keeps the database private to its user: the folder is created 0700 (an existing one with group or
 * other bits is tightened when this user owns it, else reported), the database file is created 0600
 * before SQLite opens it, and the file, its `-wal` and `-shm` are set to 0600 when looser (SQLite
 * gives its companions the database file's mode).
 */
function securePaths(path: string, onPermissions: OpenOptions['onPermissions']): void {
  const folder = resolve(dirname(path));
  const report: PermissionReport = { tightenedFolder: null, looseFolder: null };
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  const mode = statSync(folder).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    try {
      chmodSync(folder, mode & FOLDER_MODE);
      report.tightenedFolder = mode.toString(8);
    } catch {
      report.looseFolder = mode.toString(8);
    }
  }
  if (!existsSync(path)) closeSync(openSync(path, 'a', FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, FILE_MODE);
  }
  if (report.tightenedFolder || report.looseFolder) onPermissions?.({ folder, ...report });
}

/**
 * Opens the SQLite database: WAL (readers never block the writer), foreign keys on, lock waits as
 * `lockWait` says (write-lock.ts), and synchronous=FULL: every commit reaches the disk before it
 * returns, so what Kassa acknowledged survives a power loss too. With NORMAL the last commits before
 * a power loss could vanish: a signed payout recorded and then broadcast would be signed and sent
 * again after the reboot, and a deposit address handed to a customer would go to the next order. The
 * API's group commit (batched-write.ts) shares one sync among concurrent writes. The folder and the
 * files are private to the user (securePaths).
 */
export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:' && path !== '') securePaths(path, options.onPermissions);
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  configureLockWait(sqlite, options.lockWait ?? 'blocking', options.lockWaitMs ?? 5000);
  return drizzle(sqlite, { schema }) as Db;
}

/**
 * Runs `fn` in one IMMEDIATE transaction (takes the write lock up front, so no upgrade deadlock).
 * When another process holds the lock past the connection's wait, throws `busy` (503) having
 * written nothing; a server connection then stops waiting on the event loop until the lock is free
 * (write-lock.ts). Prefer writeTransactionAsync where the caller can wait.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return lockedOut(db, () => db.$client.transaction(fn).immediate()).value as T;
}

/** Runs `fn`; SQLite's "database is locked" becomes `busy`, noting whether the caller may wait for it. */
function lockedOut<T>(db: Db, fn: () => T): { value: T } {
  try {
    return { value: fn() };
  } catch (error) {
    if (!isLockedError(error)) throw error;
    const mayWait = noteLockHeldElsewhere(db.$client);
    throw Object.assign(busyError(error), { mayWait });
  }
}

/**
 * writeTransaction that waits for a lock held by another process asynchronously (never more than
 * SYNC_LOCK_WAIT_MS on the event loop), retrying until `database.lockWaitMs` has passed; then throws
 * `busy` (503) having written nothing.
 */
export async function writeTransactionAsync<T>(db: Db, fn: () => T): Promise<T> {
  const deadline = Date.now() + lockWaitMsOf(db.$client);
  for (;;) {
    await whenWriteLockFree(db.$client, deadline);
    try {
      return writeTransaction(db, fn);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'busy')) throw error;
      // A blocking connection already waited its whole busy timeout inside the call.
      if (!(error as { mayWait?: boolean }).mayWait || Date.now() >= deadline) throw error;
    }
  }
}
