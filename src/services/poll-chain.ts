import type { ChainAdapter } from '../chains/port.ts';
import { connectChain } from './connect-chain.ts';
import type { Deps } from './deps.ts';
import { listTokens } from './resolve-token.ts';
import { type ScanSummary, scanChain } from './scan-chain/scan-chain.ts';
import { trackPayouts } from './track-payouts.ts';

/** What one poll of a chain did; `connected: false` when the chain could not be used this tick. */
export type PollSummary = (ScanSummary & { connected: true; settled: number }) | { connected: false };

/**
 * The worker's tick for a chain, every `pollIntervalMs` (workers/jobs/chain-jobs.ts), and what
 * every test world runs for "one poll": connect when needed (connect-chain), scan to the head and
 * settle what became final (scan-chain), record the chain's progress in `deps.health` (read by
 * /readyz and /metrics), then follow the payouts in flight against the heads just read
 * (track-payouts). An error is recorded as the chain's last error and thrown (the job logs it and
 * runs again on its next tick; nothing half-written stays).
 */
export async function pollChain(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'logger' | 'health'>,
  adapter: ChainAdapter,
  signal: AbortSignal,
): Promise<PollSummary> {
  if (!(await connectChain(deps, adapter))) return { connected: false };
  const status = deps.health.get(adapter.chain);
  try {
    const tokens = (await listTokens(deps)).filter((t) => t.chain === adapter.chain);
    const summary = await scanChain(deps, adapter, tokens, signal);
    Object.assign(status, {
      head: summary.head,
      final: summary.final,
      scannedTo: summary.scannedTo,
      lastScanAt: deps.clock.now(),
      lastError: null,
    });
    const payouts = await trackPayouts(deps, adapter, summary);
    return { connected: true, ...summary, ...payouts };
  } catch (error) {
    status.lastError = (error as Error).message;
    throw error;
  }
}
