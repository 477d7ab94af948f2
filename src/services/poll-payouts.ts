import type { ChainAdapter } from '../chains/port.ts';
import { connectChain } from './connect-chain.ts';
import type { Deps } from './deps.ts';
import { sendPayouts } from './send-payouts.ts';

/**
 * The worker's payout tick for a chain, every `worker.payoutIntervalMs` (workers/jobs/chain-jobs.ts),
 * and what the test worlds run for "one payout pass": sends the chain's queued payouts from its hot
 * wallet (send-payouts) once the chain is connected and the process holds the operator keys.
 * Following them happens in the chain's poll (poll-chain).
 */
export async function pollPayouts(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'logger' | 'health' | 'keys'>,
  adapter: ChainAdapter,
  signal: AbortSignal,
): Promise<Awaited<ReturnType<typeof sendPayouts>> | { connected: false }> {
  if (!(await connectChain(deps, adapter)) || !deps.keys) return { connected: false };
  return sendPayouts(deps, adapter, signal);
}
