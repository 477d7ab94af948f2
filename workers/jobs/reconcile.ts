import type { ChainAdapter } from '../../src/chains/port.ts';
import type { Chain } from '../../src/domain/chains.ts';
import type { Deps } from '../../src/services/deps.ts';
import { reconcile } from '../../src/services/reconcile/reconcile.ts';
import type { JobGroup } from '../main.ts';

/** The job's name in the scheduler (tests nudge it). */
export const RECONCILE_JOB = 'reconcile';

/**
 * One reconciliation of every chain (README, "Reconciliation"): the run is stored (metrics read the
 * last one), each unexplained difference and each chain that could not be read is logged at error
 * level. Returns the counts for the scheduler's log.
 */
export function reconcileJob(deps: Deps, adapters: ReadonlyMap<Chain, ChainAdapter>) {
  return async () => {
    const report = await reconcile(deps, adapters);
    const log = deps.logger.child({ job: RECONCILE_JOB, run: report.id });
    for (const c of report.chains)
      if (c.error) log.error({ chain: c.chain, error: c.error }, 'reconcile: chain not checked');
    for (const d of report.differences)
      if (d.status === 'unexplained')
        log.error(
          {
            chain: d.chain,
            address: d.address,
            role: d.role,
            symbol: d.symbol,
            expected: d.expected,
            actual: d.actual,
            difference: d.difference,
            orderId: d.orderId,
          },
          'reconcile: unexplained difference',
        );
    return { addresses: report.addresses, unexplained: report.unexplained, inFlight: report.inFlight };
  };
}

/** Schedules the reconciliation on `reconcile.schedule` when `reconcile.enabled` and a chain is connected. */
export const reconcileJobs: JobGroup = (deps, scheduler) => {
  if (!deps.config.reconcile.enabled || deps.adapters.size === 0 || !deps.keys) return;
  scheduler.cron(RECONCILE_JOB, deps.config.reconcile.schedule, reconcileJob(deps, deps.adapters));
};
