import fc from 'fast-check';
import { describe, it } from 'vitest';
import { useExchange } from './exchange.ts';
import { useFuzzWorld } from './world.ts';

/**
 * Property-based fuzzing of the routing (issue 14): any method on any path under the API, in
 * process on a real migrated database. Every answer is checked by `exchange` (exchange.ts). Fixed
 * seeds and bounded runs.
 */
const SEED = 1405;
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 150);

const w = useFuzzWorld();
const exchange = useExchange(w);

describe('fuzzing paths and methods', () => {
  it('any method on any path under the API answers an envelope, never a 5xx', async () => {
    const path = fc.oneof(
      fc.constantFrom(
        '/v1/order/createCollection',
        '/v1/order/createPayout',
        '/v1/merchant/getBalance',
        '/v1/order/pay',
        '/v1/order/getOrderStatus',
        '/v1/order/status/K-1',
        '/v1/symbol/supportSymbols',
        '/v1/order/status/',
        '/v1/order/status/%ZZ',
        '/v1/order/status/a%2Fb',
        '/v1/',
        '/v1/order/createCollection/',
        '/V1/ORDER/PAY',
      ),
      fc.webPath().map((p) => `/v1${p}`),
      fc.array(fc.webSegment(), { maxLength: 4 }).map((s) => `/v1/order/${s.join('/')}`),
    );
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        async (p, method) => {
          const init: RequestInit = { method };
          if (method !== 'GET') init.body = '{}';
          await exchange(p, init, { envelope: true });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
