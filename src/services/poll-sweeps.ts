import type { ChainAdapter } from '../chains/port.ts';
import { connectChain } from './connect-chain.ts';
import type { Deps } from './deps.ts';
import { runSweeps, type SweepPassSummary } from './run-sweeps.ts';

/** The worker's name on a hot-wallet lease: a restarted worker (after a SIGKILL) takes its lease back at once. */
export const WORKER_HOLDER = 'worker';

/**
 * The worker's sweep tick for a chain (workers/jobs/chain-jobs.ts): on `chains.<CHAIN>.sweep.schedule`
 * a full pass (`planNew`: new sweeps too), and at the payout cadence a follower that moves sweeps
 * under way (a top-up waiting to be final) and costs one read when there are none.
 */
export async function pollSweeps(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'logger' | 'health' | 'keys'>,
  adapter: ChainAdapter,
  signal: AbortSignal,
  options: { planNew: boolean },
): Promise<SweepPassSummary | { connected: false }> {
  if (!(await connectChain(deps, adapter)) || !deps.keys) return { connected: false };
  return runSweeps(deps, adapter, signal, { holder: WORKER_HOLDER, planNew: options.planNew });
}
