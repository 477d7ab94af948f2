import type { Deps } from '../src/services/deps.ts';
import { expireOrdersJob } from './jobs/expire-orders.ts';
import { pruneNoncesJob } from './jobs/prune-nonces.ts';
import { Scheduler } from './scheduler.ts';

/** A running worker: its scheduler, and a graceful stop. */
export interface Worker {
  scheduler: Scheduler;
  stop(): Promise<void>;
}

/** Extra job groups (chain scanners, payouts, webhooks) registered by their parts. */
export type JobGroup = (deps: Deps, scheduler: Scheduler) => void | Promise<void>;

/**
 * Starts the worker's jobs: order expiry, nonce pruning, and the job groups given (chain polling,
 * payouts, webhook delivery). Nothing here waits on a chain: an unreachable RPC only makes its own
 * job log and retry.
 */
export async function startWorker(deps: Deps, groups: JobGroup[] = []): Promise<Worker> {
  const scheduler = new Scheduler(deps.logger.child({ part: 'worker' }));
  scheduler.every('expire-orders', deps.config.worker.expireIntervalMs, expireOrdersJob(deps));
  scheduler.every('prune-nonces', 60_000, pruneNoncesJob(deps));
  for (const group of groups) await group(deps, scheduler);
  deps.logger.info('worker started');
  return {
    scheduler,
    async stop() {
      await scheduler.stop();
      deps.logger.info('worker stopped');
    },
  };
}
