import type { Db } from './client.ts';
import { prepared } from './prepared.ts';
import {
  busyError,
  isLockedError,
  lockWaitMsOf,
  noteLockHeldElsewhere,
  whenWriteLockFree,
} from './write-lock.ts';

interface Pending {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Epoch ms after which the write gives up waiting for a lock held elsewhere. */
  deadline: number;
}

/** A database's writes waiting for the next flush; `parked` while the lock is held elsewhere. */
interface Queue {
  items: Pending[];
  parked: boolean;
}

const queues = new WeakMap<Db, Queue>();

/**
 * Group commit for the API's hot writes: every write queued during one turn of the event loop runs
 * in a single IMMEDIATE transaction, each inside its own savepoint (one failing write is rolled back
 * alone and rejects only its own promise). In WAL mode a commit writes every page it touched, so
 * fifty concurrent createCollection requests sharing one commit write the orders table's last page
 * and its index pages once instead of fifty times. Each write still sees the ones before it (they
 * run in order), so checks such as "does this orderId exist" stay exact. If the commit itself fails,
 * every write of the batch is rejected and nothing of it is stored.
 *
 * When another process holds the write lock (BEGIN fails after the connection's short synchronous
 * wait, write-lock.ts), the batch is parked, in order, ahead of later writes, and flushed once the
 * lock is free: the event loop is never blocked meanwhile. A write still waiting after
 * `database.lockWaitMs` is rejected with `busy` (503) and nothing of it is stored.
 */
export function batchedWrite<T>(db: Db, fn: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = { items: [], parked: false };
      queues.set(db, queue);
      setImmediate(() => flush(db));
    }
    const deadline = Date.now() + lockWaitMsOf(db.$client);
    queue.items.push({ fn, resolve: resolve as (value: unknown) => void, reject, deadline });
  });
}

/** Waits asynchronously for the lock (or the earliest deadline), then flushes the parked writes. */
function park(db: Db, queue: Queue): void {
  queue.parked = true;
  const earliest = Math.min(...queue.items.map((item) => item.deadline));
  const resume = () => {
    queue.parked = false;
    flush(db, true);
  };
  whenWriteLockFree(db.$client, earliest).then(resume, resume);
}

/** The batch's statements, prepared once per database (better-sqlite3's `transaction()` builds four
 * wrapper functions on every call, which cost more than the savepoints themselves on this path). */
const statements = (db: Db) =>
  prepared(db, 'batched-write.statements', () => ({
    begin: db.$client.prepare('BEGIN IMMEDIATE'),
    commit: db.$client.prepare('COMMIT'),
    rollback: db.$client.prepare('ROLLBACK'),
    savepoint: db.$client.prepare('SAVEPOINT batched_write_item'),
    release: db.$client.prepare('RELEASE batched_write_item'),
    rollbackTo: db.$client.prepare('ROLLBACK TO batched_write_item'),
  }));

function flush(db: Db, resumed = false): void {
  const queue = queues.get(db);
  if (!queue || queue.parked) return;
  const now = Date.now();
  const batch: Pending[] = [];
  for (const item of queue.items) {
    if (resumed && item.deadline <= now) item.reject(busyError());
    else batch.push(item);
  }
  queue.items = batch;
  if (batch.length === 0) {
    queues.delete(db);
    return;
  }
  const sql = statements(db);
  try {
    sql.begin.run();
  } catch (error) {
    if (isLockedError(error) && noteLockHeldElsewhere(db.$client)) {
      park(db, queue);
      return;
    }
    queues.delete(db);
    const reason = isLockedError(error) ? busyError(error) : error;
    for (const item of batch) item.reject(reason);
    return;
  }
  queues.delete(db);
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    try {
      for (const item of batch) {
        sql.savepoint.run();
        try {
          const value = item.fn();
          sql.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          // SQLite may have rolled the whole transaction back (a full disk, say): then nothing of
          // the batch is stored and every write of it must fail, not only this one.
          if (!db.$client.inTransaction) throw error;
          sql.rollbackTo.run();
          sql.release.run();
          outcomes.push({ ok: false, error });
        }
      }
      sql.commit.run();
    } catch (error) {
      if (db.$client.inTransaction) sql.rollback.run();
      throw error;
    }
  } catch (error) {
    for (const item of batch) item.reject(error);
    return;
  }
  outcomes.forEach((outcome, i) => {
    const item = batch[i] as Pending;
    if (outcome.ok) item.resolve(outcome.value);
    else item.reject(outcome.error);
  });
}
