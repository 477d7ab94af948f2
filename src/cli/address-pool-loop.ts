import type { Family } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import type { Deps } from '../services/deps.ts';
import { fillAddressPool } from '../services/fill-address-pool.ts';

/**
 * Keeps `target` pre-derived deposit addresses per family in the pool, a few at a time between
 * requests (setImmediate), so derivation never sits on a request's path while the pool lasts.
 */
export function startAddressPoolLoop(deps: Deps, target: number, families: Family[]): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let locked = false;
  const tick = async () => {
    if (stopped) return;
    let added = 0;
    try {
      for (const family of families) added += await fillAddressPool(deps, family, target, 8);
      locked = false;
    } catch (err) {
      // Another process holds the write lock: try again in a second, and say so once.
      if (err instanceof AppError && err.code === 'busy') {
        if (!locked) deps.logger.warn('address pool refill waits: the database is locked by another process');
        locked = true;
      } else deps.logger.error({ err }, 'address pool refill failed');
    }
    if (stopped) return;
    if (added > 0) setImmediate(tick);
    else timer = setTimeout(tick, 1000);
  };
  if (target > 0 && deps.keys) setImmediate(tick);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
