import type { Deps } from '../src/services/deps.ts';
import {
  type LeaseTiming,
  WORKER_LEASE_TIMING,
  WorkerLeaseKeeper,
  workerHolderId,
} from '../src/services/worker-lease.ts';
import { expireOrdersJob } from './jobs/expire-orders.ts';
import { pruneNoncesJob } from './jobs/prune-nonces.ts';
import { Scheduler } from './scheduler.ts';

/** A running worker: its scheduler, its lease, and a graceful stop. */
export interface Worker {
  scheduler: Scheduler;
  lease: WorkerLeaseKeeper;
  stop(): Promise<void>;
}

/** Extra job groups (chain scanners, payouts, webhooks) registered by their parts. */
export type JobGroup = (deps: Deps, scheduler: Scheduler) => void | Promise<void>;

/**
 * Starts the worker's jobs: order expiry, nonce pruning, and the job groups given (chain polling,
 * payouts, webhook delivery). Nothing here waits on a chain: an unreachable RPC only makes its own
 * job log and retry.
 *
 * Jobs run only while this process holds the worker lease (worker-lease.ts), so of several `kassa
 * worker` (or `kassa start`) processes on one database exactly one works and the others stand by,
 * taking over within 7 s of the holder's death. Why nothing is done twice when the lease moves:
 * - a scan step commits its transfers, transitions and events with the checkpoint it continues
 *   from as a guard (recordScan's `base`): a step a former holder finishes late is refused whole;
 * - a payout is stored with its signed bytes and its order's move before it is broadcast, guarded
 *   by the order's version and, on EVM, by one slot per nonce; a signature made after the lease was
 *   lost is dropped unsent (send-payouts.ts), and a new holder re-broadcasts stored bytes, never
 *   signs the slot anew;
 * - a webhook event is claimed (leased for timeoutMs + 1 s) in the transaction that records the
 *   attempts before it, so a new holder sends it only after the former holder's request ended; one
 *   cut off by a SIGKILL mid-request goes out again with the same event id (at least once).
 */
export async function startWorker(
  deps: Deps,
  groups: JobGroup[] = [],
  options: { holder?: string; leaseTiming?: LeaseTiming } = {},
): Promise<Worker> {
  const log = deps.logger.child({ part: 'worker' });
  let scheduler: Scheduler | null = null;
  const lease = new WorkerLeaseKeeper(
    { ...deps, logger: log },
    options.holder ?? workerHolderId(),
    {
      onGain: () => scheduler?.resume(),
      // readiness then judges the chains from the checkpoints the new holder writes
      onLose: () => deps.health.clear(),
    },
    options.leaseTiming ?? WORKER_LEASE_TIMING,
  );
  scheduler = new Scheduler(log, lease);
  await lease.start();
  scheduler.every('expire-orders', deps.config.worker.expireIntervalMs, expireOrdersJob(deps));
  scheduler.every('prune-nonces', 60_000, pruneNoncesJob(deps));
  for (const group of groups) await group(deps, scheduler);
  deps.logger.info({ holder: lease.holder, holding: lease.open() }, 'worker started');
  const running = scheduler;
  return {
    scheduler: running,
    lease,
    async stop() {
      await running.stop();
      await lease.stop({ release: true });
      deps.logger.info('worker stopped');
    },
  };
}
