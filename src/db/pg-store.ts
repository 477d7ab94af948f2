import { AppError } from '../domain/errors.ts';
import { asUnavailable, type PgDb } from './pg/client.ts';
import { pgDashboardAccountStore } from './pg/store/dashboard-accounts.ts';
import { pgMerchantStore } from './pg/store/merchants.ts';
import { pgMoneyStore } from './pg/store/money.ts';
import { pgOperationsStore } from './pg/store/operations.ts';
import { pgOrderStore } from './pg/store/orders.ts';
import { pgReconciliationStore } from './pg/store/reconciliation.ts';
import { pgScanStore } from './pg/store/scanning.ts';
import { pgSweepStore } from './pg/store/sweeping.ts';
import { pgWebhookStore } from './pg/store/webhooks.ts';
import { pgWorkerLeaseStore } from './pg/store/worker-leases.ts';
import { mapRejections, withoutQueryValues } from './query-error.ts';
import type { Store } from './store.ts';

const handles = new WeakMap<Store, PgDb>();

/**
 * The Store port on PostgreSQL: the functions of ./pg/repositories (one per SQLite repository
 * function, same name, same contract) bound to one pool, area by area (./pg/store). Each write is
 * one transaction; where SQLite's single writer made a check and its write safe, PostgreSQL gets
 * the row lock, unique constraint or isolation level that keeps them safe with several processes
 * (each function says which).
 */
export function createPgStore(db: PgDb): Store {
  const store: Store = reachable({
    ...pgDashboardAccountStore(db),
    ...pgScanStore(db),
    ...pgOrderStore(db),
    ...pgMoneyStore(db),
    ...pgWebhookStore(db),
    ...pgMerchantStore(db),
    ...pgOperationsStore(db),
    ...pgSweepStore(db),
    ...pgReconciliationStore(db),
    ...pgWorkerLeaseStore(db),
  });
  handles.set(store, db);
  return store;
}

/**
 * `store` with every rejection made safe to log (withoutQueryValues: no query values in error text)
 * and passed through asUnavailable: a server that cannot be reached, or that drops the connection,
 * makes any call (a read too) fail as `busy`, which the API answers with 503 and a retry, as SQLite
 * answers a write lock held too long; not as an internal error.
 */
function reachable(store: Store): Store {
  return mapRejections(store, (error) => {
    const unavailable = asUnavailable(error);
    if (unavailable === error) return withoutQueryValues(error);
    // busy, for a connection lost: its cause too must not carry the query's values
    const busy = unavailable as AppError;
    return new AppError(busy.code, busy.detail, { cause: withoutQueryValues(error) });
  });
}

/**
 * The PostgreSQL pool under a store made by createPgStore: for the composition root (migrations,
 * close) and for tests; never for services. Throws for another kind of store.
 */
export function pgOf(store: Store): PgDb {
  const db = handles.get(store);
  if (!db) throw new Error('not a PostgreSQL store');
  return db;
}
