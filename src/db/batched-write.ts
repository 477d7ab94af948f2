import type { Db } from './client.ts';
import { prepared } from './prepared.ts';

interface Pending {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const queues = new WeakMap<Db, Pending[]>();

/**
 * Group commit for the API's hot writes: every write queued during one turn of the event loop runs
 * in a single IMMEDIATE transaction, each inside its own savepoint (one failing write is rolled back
 * alone and rejects only its own promise). In WAL mode a commit writes every page it touched, so
 * fifty concurrent createCollection requests sharing one commit write the orders table's last page
 * and its index pages once instead of fifty times. Each write still sees the ones before it (they
 * run in order), so checks such as "does this orderId exist" stay exact. If the commit itself fails,
 * every write of the batch is rejected and nothing of it is stored.
 */
export function batchedWrite<T>(db: Db, fn: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = [];
      queues.set(db, queue);
      setImmediate(() => flush(db));
    }
    queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
  });
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

function flush(db: Db): void {
  const batch = queues.get(db) ?? [];
  queues.delete(db);
  const sql = statements(db);
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    sql.begin.run();
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
