import type { WorkerLease } from '../repositories/worker-leases.ts';

/**
 * The worker lease (repositories/worker-leases.ts): which process runs the worker's jobs. Part of
 * the Store port (../store.ts). Times are epoch milliseconds from the caller's clock; a lease has run
 * out when `expiresAt <= now`. Each function is one atomic unit: two processes calling
 * acquireWorkerLease at once never both get the lease.
 */
export interface WorkerLeaseStore {
  /**
   * Takes or renews the lease `name` for `holder` until `now + ttlMs`: granted when nobody holds it,
   * when `holder` already does (a renewal, keeping `acquiredAt`), or when the current holder's lease
   * has run out (a take-over, `acquiredAt` = `now`). Refused, writing nothing, while another
   * holder's lease runs. Resolves to the lease as it stands afterwards: granted when its holder is
   * `holder`, else it names the holder to wait for.
   */
  acquireWorkerLease(input: {
    name: string;
    holder: string;
    now: number;
    ttlMs: number;
  }): Promise<WorkerLease>;
  /** Gives the lease back if `holder` has it (whether or not it ran out); true when it did. Another holder's lease stays. */
  releaseWorkerLease(input: { name: string; holder: string }): Promise<boolean>;
  /** The lease as stored, run out or not; null when nobody holds it. */
  findWorkerLease(name: string): Promise<WorkerLease | null>;
}
