import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import { signData } from '../helpers/signing.ts';
import { byStatus } from './refusals.ts';

/**
 * Property-based fuzzing with the default rate limits (issue 14): a storm of mixed requests from a
 * few client addresses, in process on a real migrated database, only ever meets the error table.
 * Fixed seeds and bounded runs.
 */
const SEED = 1405;
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 150);

describe('fuzzing with the default limits', () => {
  let d: Harness;
  let dm: MerchantCreated;
  beforeAll(async () => {
    d = await makeHarness();
    dm = await d.merchant('V3');
  });
  afterAll(() => d?.close());

  it('a storm of mixed requests from a few addresses only ever meets the table: 200, 4xx, 429', async () => {
    const request = fc.record({
      ip: fc.constantFrom('198.51.100.1', '198.51.100.2', '2001:db8::1'),
      kind: fc.constantFrom('post-good', 'post-bad', 'pay', 'status', 'symbols'),
      n: fc.nat(1000),
      advanceMs: fc.constantFrom(0, 0, 0, 10, 500, 5000),
    });
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        sent++;
        d.clock.advance(r.advanceMs);
        const env = { incoming: { socket: { remoteAddress: r.ip } } };
        const data = { amount: '1', symbol: 'USDT', chain: 'TRON', orderId: `D-${r.n}` };
        const ts = Math.floor(d.clock.now() / 1000);
        const body = {
          'post-good': `{"sign":"${signData(dm.token, JSON.stringify(data))}","timestamp":${ts},"nonce":"${r.n}-${sent}","data":${JSON.stringify(data)}}`,
          'post-bad': `{"sign":"${'ab'.repeat(32)}","timestamp":${ts},"nonce":"x","data":${JSON.stringify(data)}}`,
        };
        const res =
          r.kind === 'post-good' || r.kind === 'post-bad'
            ? await d.app.request('/v1/order/createCollection', { method: 'POST', body: body[r.kind] }, env)
            : r.kind === 'symbols'
              ? await d.app.request('/v1/symbol/supportSymbols', {}, env)
              : await d.app.request(
                  r.kind === 'pay'
                    ? `/v1/order/pay?orderId=D-${r.n}&sign=${signData(dm.token, `D-${r.n}`)}`
                    : `/v1/order/status/D-${r.n}?sign=${signData(dm.token, `D-${r.n}`)}`,
                  {},
                  env,
                );
        expect([200, 401, 404, 409, 429]).toContain(res.status);
        const b = (await res.json()) as { code: number; msg: string };
        expect(b.code).toBe(res.status);
        if (res.status !== 200) expect(byStatus.get(res.status)?.has(b.msg)).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });
});
