import type { ChainAdapter } from '../../src/chains/port.ts';
import type { Deps } from '../../src/services/deps.ts';
import { type PollSummary, pollChain } from '../../src/services/poll-chain.ts';

/** A poll that found the chain connected. */
export type Polled = Extract<PollSummary, { connected: true }>;

/**
 * One poll of a chain, exactly as the worker's scan job runs it (services/poll-chain.ts); throws
 * when the chain could not be used, with the reason the worker would report.
 */
export async function onePoll(deps: Deps, adapter: ChainAdapter): Promise<Polled> {
  const polled = await pollChain(deps, adapter, new AbortController().signal);
  if (!polled.connected) {
    throw new Error(`${adapter.chain} is not connected: ${deps.health.get(adapter.chain).lastError}`);
  }
  return polled;
}
