import type { ReconciliationStore } from '../../store/reconciliation.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** ReconciliationStore on PostgreSQL (the contract: src/db/store/reconciliation.ts). */
export function pgReconciliationStore(_db: PgDb): ReconciliationStore {
  return {
    chainRecords: notPorted('chainRecords'),
    cachedTxFees: notPorted('cachedTxFees'),
    walletFloatsOf: notPorted('walletFloatsOf'),
    recordReconciliation: notPorted('recordReconciliation'),
    lastReconciliation: notPorted('lastReconciliation'),
  };
}
