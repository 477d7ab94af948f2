import type { Db } from './client.ts';

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

function flush(db: Db): void {
  const batch = queues.get(db) ?? [];
  queues.delete(db);
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    db.$client
      .transaction(() => {
        for (const item of batch) {
          try {
            outcomes.push({ ok: true, value: db.$client.transaction(item.fn)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      })
      .immediate();
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
