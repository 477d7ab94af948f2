import type { Runtime } from '../src/bootstrap.ts';
import { chainJobs } from './jobs/chain-jobs.ts';
import { webhookJobs } from './jobs/deliver-webhooks.ts';
import { reconcileJobs } from './jobs/reconcile.ts';
import { startWorker, type Worker } from './main.ts';

/**
 * The worker of `kassa start`, `kassa worker` and `kassa sandbox`: order expiry, nonce pruning, each
 * chain's polling and payouts, webhook delivery, the scheduled reconciliation. The entry points (bin/kassa.mjs,
 * scripts/bundle-entry.ts) hand it to the CLI, so nothing in src/ imports workers/.
 */
export function startKassaWorker(rt: Runtime): Promise<Worker> {
  return startWorker(rt, [chainJobs(rt.adapters, rt.health), webhookJobs, reconcileJobs(rt.adapters)]);
}
