import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import { signData } from '../helpers/signing.ts';

let h: Harness;
afterEach(() => h?.close());

/** The app with a logger at `level` whose lines land in the returned array. */
async function appWithLog(level: string) {
  h = await makeHarness();
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { app: createApp({ ...h.rt, logger }), lines };
}

describe('access log', () => {
  it('writes one debug line per request with method, path, status, ms and requestId, never the query', async () => {
    const { app, lines } = await appWithLog('debug');
    const m = await h.merchant('V3');
    const sign = signData(m.token, 'nope');
    const res = await app.request(`/v1/order/getOrderStatus?orderId=nope&sign=${sign}`);
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 20,
      method: 'GET',
      path: '/v1/order/getOrderStatus',
      status: res.status,
      requestId: res.headers.get('x-request-id'),
    });
    expect(typeof access[0]?.ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain(sign);
    expect(JSON.stringify(lines)).not.toContain('sign=');
  });

  it('logs the status of refused and failed requests too', async () => {
    const { app, lines } = await appWithLog('debug');
    await app.request('/v1/order/createCollection', { method: 'POST', body: '{' });
    await app.request('/no/such/page');
    await app.request('/healthz');
    expect(lines.filter((l) => l.msg === 'request').map((l) => [l.path, l.status])).toEqual([
      ['/v1/order/createCollection', 400],
      ['/no/such/page', 404],
      ['/healthz', 200],
    ]);
  });

  it('writes nothing at info, the default level (the line costs too much throughput there)', async () => {
    const { app, lines } = await appWithLog('info');
    await app.request('/healthz');
    await app.request('/no/such/page');
    expect(lines.filter((l) => l.msg === 'request')).toEqual([]);
  });
});
