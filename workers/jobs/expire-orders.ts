import type { Deps } from '../../src/services/deps.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';

/** Expires due orders in batches until none is left or the worker is stopping. */
export function expireOrdersJob(deps: Deps) {
  return async (signal: AbortSignal) => {
    let total = 0;
    while (!signal.aborted) {
      const { expired } = await expireOrders(deps);
      total += expired;
      if (expired === 0) break;
    }
    return { expired: total };
  };
}
