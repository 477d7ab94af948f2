import type Database from 'better-sqlite3';
import { AppError } from '../domain/errors.ts';

/**
 * The longest a statement of a process with an event loop to keep free (API, worker) waits
 * synchronously for a lock held by another connection: SQLite's busy handler sleeps inside the
 * call, so every millisecond here is a millisecond no request is answered.
 */
export const SYNC_LOCK_WAIT_MS = 40;
/** How often, while the write lock is held elsewhere, the connection tries (without waiting) to take it. */
const PROBE_EVERY_MS = 10;

/**
 * How a connection waits for the write lock of another connection: `async` (servers) waits at most
 * SYNC_LOCK_WAIT_MS on the event loop, then asynchronously (writeTransactionAsync, batchedWrite) up
 * to `lockWaitMs`; `blocking` (one-shot commands, which have nothing else to do) lets SQLite's busy
 * handler wait up to `lockWaitMs`.
 */
export type LockWait = 'async' | 'blocking';

interface LockState {
  mode: LockWait;
  lockWaitMs: number;
  /** Another connection held the write lock past SYNC_LOCK_WAIT_MS and has not been seen to let go. */
  contended: boolean;
  waiters: Set<() => void>;
  probe: NodeJS.Timeout | null;
}

const states = new WeakMap<Database.Database, LockState>();

/** Sets how `sqlite` waits for locks (openDatabase calls it). */
export function configureLockWait(sqlite: Database.Database, mode: LockWait, lockWaitMs: number): void {
  states.set(sqlite, { mode, lockWaitMs, contended: false, waiters: new Set(), probe: null });
  sqlite.pragma(`busy_timeout = ${mode === 'async' ? Math.min(SYNC_LOCK_WAIT_MS, lockWaitMs) : lockWaitMs}`);
}

function stateOf(sqlite: Database.Database): LockState {
  let state = states.get(sqlite);
  if (!state) {
    state = { mode: 'blocking', lockWaitMs: 0, contended: false, waiters: new Set(), probe: null };
    states.set(sqlite, state);
  }
  return state;
}

/** How long a write of this connection may wait for the lock, in all (config `database.lockWaitMs`). */
export function lockWaitMsOf(sqlite: Database.Database): number {
  return stateOf(sqlite).lockWaitMs;
}

/** Whether `error` is SQLite's "database is locked" (SQLITE_BUSY and its extended codes). */
export function isLockedError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The error a write gets when the lock stayed taken: 503 `The service is busy. Please retry.` */
export function busyError(cause?: unknown): AppError {
  return new AppError('busy', 'The database is locked by another process; the write was not made.', {
    cause,
  });
}

/**
 * Records that another connection holds the write lock (a write of ours waited SYNC_LOCK_WAIT_MS in
 * vain). Until it is seen free again, this connection's statements stop waiting synchronously at all
 * (busy_timeout 0: they fail at once instead of each stalling the event loop), and a timer tries every
 * PROBE_EVERY_MS to take the lock without waiting; once it can, waits are restored and every
 * asynchronous waiter is woken. Returns whether the caller may wait for that (whenWriteLockFree):
 * false for `blocking` connections, whose statement already waited all it may.
 */
export function noteLockHeldElsewhere(sqlite: Database.Database): boolean {
  const state = stateOf(sqlite);
  if (state.mode !== 'async' || !sqlite.open) return false;
  if (state.contended) return true;
  state.contended = true;
  sqlite.pragma('busy_timeout = 0');
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  const rollback = sqlite.prepare('ROLLBACK');
  state.probe = setInterval(() => {
    if (!sqlite.open) return release(sqlite, state, false);
    try {
      begin.run();
      rollback.run();
    } catch (error) {
      if (isLockedError(error)) return;
    }
    release(sqlite, state, true);
  }, PROBE_EVERY_MS);
  state.probe.unref();
  return true;
}

function release(sqlite: Database.Database, state: LockState, restore: boolean): void {
  if (state.probe) clearInterval(state.probe);
  state.probe = null;
  state.contended = false;
  if (restore && sqlite.open)
    sqlite.pragma(`busy_timeout = ${Math.min(SYNC_LOCK_WAIT_MS, state.lockWaitMs)}`);
  const waiters = [...state.waiters];
  state.waiters.clear();
  for (const wake of waiters) wake();
}

/**
 * Resolves once the write lock is not known to be held elsewhere (at once, usually); rejects with
 * `busyError()` at `deadline` (epoch ms) if it still is. Never blocks the event loop.
 */
export function whenWriteLockFree(sqlite: Database.Database, deadline: number): Promise<void> {
  const state = stateOf(sqlite);
  if (!state.contended) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        state.waiters.delete(wake);
        reject(busyError());
      },
      Math.max(0, deadline - Date.now()),
    );
    state.waiters.add(wake);
  });
}
