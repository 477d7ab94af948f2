import type { ChainAdapter } from '../../src/chains/port.ts';

/** Methods of the port that answer synchronously; they are passed through untouched. */
const SYNC = new Set(['scanStep', 'rpcStatistics']);

/**
 * A chain adapter that runs `before(method, args)` ahead of every asynchronous call of the real one
 * (heads, block, scan, lookup…): a test can reorganise the chain, cut the RPC or "kill" the worker
 * (throw) at an exact point of a scan pass instead of racing it with a sleep. `before` may throw:
 * the call then fails as a network error would.
 */
export function hookedAdapter(
  inner: ChainAdapter,
  before: (method: string, args: unknown[]) => void | Promise<void>,
): ChainAdapter {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || SYNC.has(String(property))) {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: unknown[]) => {
        await before(String(property), args);
        return value.apply(target, args);
      };
    },
  });
}
