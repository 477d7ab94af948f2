import type { Deps } from '../src/services/deps.ts';
import { chainJobs } from './jobs/chain-jobs.ts';
import { webhookJobs } from './jobs/deliver-webhooks.ts';
import { reconcileJobs } from './jobs/reconcile.ts';
import { startWorker, type Worker } from './main.ts';

/**
 * The worker of `kassa start`, `kassa worker` and `kassa sandbox`: order expiry, nonce pruning, each
 * chain's polling and payouts, webhook delivery, the scheduled reconciliation. The entry points (bin/kassa.mjs,
 * scripts/bundle-entry.ts) hand it to the CLI, so nothing in src/ imports workers/.
 */
export function startKassaWorker(deps: Deps): Promise<Worker> {
  return startWorker(deps, [chainJobs, webhookJobs, reconcileJobs]);
}
