import { activeChain } from '../../src/config/active-chain.ts';
import { pollChain } from '../../src/services/poll-chain.ts';
import { pollPayouts } from '../../src/services/poll-payouts.ts';
import type { JobGroup } from '../main.ts';

/**
 * Per enabled chain (`deps.adapters`): a scan job every poll interval (services/poll-chain.ts:
 * connect if needed, scan to the head, settle, follow payouts) and a payout job (services/
 * poll-payouts.ts: send queued payouts). A chain whose RPC is down only makes its own jobs log and
 * retry; a chain whose RPC serves another network is disabled with a clear log line. Jobs of one
 * chain never overlap (protect), so each chain has a single writer.
 */
export const chainJobs: JobGroup = (deps, scheduler) => {
  for (const [chain, adapter] of deps.adapters) {
    const settings = activeChain(deps.config, chain);
    scheduler.every(`scan:${chain}`, settings.pollIntervalMs, (signal) => pollChain(deps, adapter, signal));
    scheduler.every(`payouts:${chain}`, deps.config.worker.payoutIntervalMs, (signal) =>
      pollPayouts(deps, adapter, signal),
    );
  }
};
