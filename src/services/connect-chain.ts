import { chainErrorIn } from '../chains/errors.ts';
import type { ChainAdapter } from '../chains/port.ts';
import type { Deps } from './deps.ts';

/**
 * Whether a chain's jobs may run now: connects it first when it is not connected yet (the RPC is
 * checked once, then trusted), and records the outcome in `deps.health`. An RPC that serves another
 * network (ChainError `wrong_network`) disables the chain for good, logged at error; an unreachable
 * one is logged at warn and tried again on the next tick.
 */
export async function connectChain(
  deps: Pick<Deps, 'health' | 'logger'>,
  adapter: ChainAdapter,
): Promise<boolean> {
  const status = deps.health.get(adapter.chain);
  if (status.state === 'disabled') return false;
  if (status.state === 'ready') return true;
  const log = deps.logger.child({ chain: adapter.chain });
  try {
    await adapter.connect();
    status.state = 'ready';
    status.lastError = null;
    log.info('chain connected');
    return true;
  } catch (error) {
    if (!disabledBy(deps, adapter, error)) {
      status.lastError = (error as Error).message;
      log.warn({ error: status.lastError }, 'chain not reachable yet; retrying');
    }
    return false;
  }
}

/**
 * Disables the chain for good (logged at error) when `error` says one of its RPC URLs serves another
 * network (ChainError `wrong_network`, possibly wrapped by an SDK): at connect, or when a fail-over
 * first reaches that URL during a scan or a payout pass. Returns whether it did.
 */
export function disabledBy(
  deps: Pick<Deps, 'health' | 'logger'>,
  adapter: ChainAdapter,
  error: unknown,
): boolean {
  const mismatch = chainErrorIn(error, 'wrong_network');
  if (!mismatch) return false;
  const status = deps.health.get(adapter.chain);
  status.state = 'disabled';
  status.lastError = mismatch.message;
  deps.logger.child({ chain: adapter.chain }).error({ reason: mismatch.message }, 'chain disabled');
  return true;
}
