import type { ReconciliationStore } from '../../store/reconciliation.ts';
import type { PgDb } from '../client.ts';
import * as reconciliation from '../repositories/reconciliation.ts';

/** ReconciliationStore on PostgreSQL (the contract: src/db/store/reconciliation.ts). */
export function pgReconciliationStore(db: PgDb): ReconciliationStore {
  return {
    // ../repositories/reconciliation.ts
    chainRecords: (args) => reconciliation.chainRecords(db, args),
    cachedTxFees: (chain) => reconciliation.cachedTxFees(db, chain),
    walletFloatsOf: (chain) => reconciliation.walletFloatsOf(db, chain),
    recordReconciliation: (args) => reconciliation.recordReconciliation(db, args),
    lastReconciliation: () => reconciliation.lastReconciliation(db),
  };
}
