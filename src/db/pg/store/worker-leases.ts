import type { WorkerLeaseStore } from '../../store/worker-leases.ts';
import type { PgDb } from '../client.ts';
import * as workerLeases from '../repositories/worker-leases.ts';

/** WorkerLeaseStore on PostgreSQL (the contract: src/db/store/worker-leases.ts). */
export function pgWorkerLeaseStore(db: PgDb): WorkerLeaseStore {
  return {
    // ../repositories/worker-leases.ts
    acquireWorkerLease: (input) => workerLeases.acquireWorkerLease(db, input),
    releaseWorkerLease: (input) => workerLeases.releaseWorkerLease(db, input),
    findWorkerLease: (name) => workerLeases.findWorkerLease(db, name),
  };
}
