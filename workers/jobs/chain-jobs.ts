import { activeChain } from '../../src/config/active-chain.ts';
import { withHotWallet } from '../../src/services/hot-wallet-lease.ts';
import { pollChain } from '../../src/services/poll-chain.ts';
import { pollPayouts } from '../../src/services/poll-payouts.ts';
import { pollSweeps, WORKER_HOLDER } from '../../src/services/poll-sweeps.ts';
import { sweepSettings } from '../../src/services/sweep-settings.ts';
import type { JobGroup } from '../main.ts';

/** Runs the functions given to it one after another: payouts and sweeps never sign from one wallet at once. */
function serial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Per enabled chain (`deps.adapters`): a scan job every poll interval (services/poll-chain.ts:
 * connect if needed, scan to the head, settle, follow payouts) and a payout job (services/
 * poll-payouts.ts: send queued payouts) and, where `chains.<CHAIN>.sweep` is on, a sweep job on its
 * schedule with a follower at the payout cadence (services/poll-sweeps.ts); payouts and sweeps of a
 * chain take turns and hold the hot-wallet lease. A chain whose RPC is down only makes its own jobs log and
 * retry; a chain whose RPC serves another network is disabled with a clear log line. Jobs of one
 * chain never overlap (protect), so each chain has a single writer.
 */
export const chainJobs: JobGroup = (deps, scheduler) => {
  for (const [chain, adapter] of deps.adapters) {
    const settings = activeChain(deps.config, chain);
    scheduler.every(`scan:${chain}`, settings.pollIntervalMs, (signal) => pollChain(deps, adapter, signal));
    const wallet = serial();
    // payouts wait while a `kassa sweeps run` signs from the same hot wallet
    scheduler.every(`payouts:${chain}`, deps.config.worker.payoutIntervalMs, async (signal) => {
      const sent = await wallet(() =>
        withHotWallet(deps, { chain, holder: WORKER_HOLDER }, () => pollPayouts(deps, adapter, signal)),
      );
      return sent ?? { waiting: 'hot wallet lease' };
    });
    const sweep = sweepSettings(deps.config, chain, deps.keys);
    if (sweep.active) {
      const pass = (planNew: boolean) => (signal: AbortSignal) =>
        wallet(() => pollSweeps(deps, adapter, signal, { planNew }));
      // new sweeps on the schedule; those under way (a top-up waiting to be final) at the payout cadence
      scheduler.cron(`sweeps:${chain}`, sweep.schedule, pass(true));
      scheduler.every(`sweeps-follow:${chain}`, deps.config.worker.payoutIntervalMs, pass(false));
      deps.logger.info({ chain, schedule: sweep.schedule, destination: sweep.destination }, 'sweeping on');
    }
  }
};
