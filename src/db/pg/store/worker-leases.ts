import type { PgDb } from '../client.ts';
import * as workerLeases from '../repositories/worker-leases.ts';

/**
 * WorkerLeaseStore on PostgreSQL (the contract: src/db/store/worker-leases.ts, from branch
 * i16lease). Its type is checked where createPgStore spreads it into the Store.
 */
export function pgWorkerLeaseStore(db: PgDb) {
  return {
    // ../repositories/worker-leases.ts
    acquireWorkerLease: (input: { name: string; holder: string; now: number; ttlMs: number }) =>
      workerLeases.acquireWorkerLease(db, input),
    releaseWorkerLease: (input: { name: string; holder: string }) =>
      workerLeases.releaseWorkerLease(db, input),
    findWorkerLease: (name: string) => workerLeases.findWorkerLease(db, name),
  };
}
