import { isChainError } from '../chains/errors.ts';
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
    status.lastError = (error as Error).message;
    if (isChainError(error, 'wrong_network')) {
      status.state = 'disabled';
      log.error({ reason: status.lastError }, 'chain disabled');
    } else {
      log.warn({ error: status.lastError }, 'chain not reachable yet; retrying');
    }
    return false;
  }
}
