import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { envelope, signData } from '../../../test/helpers/signing.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';
import { createApp } from '../app.ts';

let h: Harness;
let m: MerchantCreated;
beforeEach(async () => {
  h = await makeHarness();
  m = await h.merchant('V3');
});
afterEach(() => h.close());

/** The request as it arrives over a socket from `ip`. */
const from = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });
const data = (orderId: string) => ({ amount: '5', symbol: 'USDT', chain: 'TRON', orderId });

function post(ip: string, d: unknown, options: { sign?: string; app?: ReturnType<typeof createApp> } = {}) {
  return (options.app ?? h.app).request(
    '/v1/order/createCollection',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: envelope(m.token, d, { timestamp: Math.floor(h.clock.now() / 1000), sign: options.sign }),
    },
    from(ip),
  );
}
const badSign = signData('not-the-token', 'x');

describe('the failed-authentication limit per client address', () => {
  it('refuses an address with 429 and Retry-After after 30 bad signatures in 60 s, even with a valid sign', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await post('203.0.113.9', data(`bad-${i}`), { sign: badSign });
      expect(res.status).toBe(401);
    }
    const refused = await post('203.0.113.9', data('good-1'));
    expect(refused.status).toBe(429);
    expect(await body(refused)).toEqual({
      code: 429,
      msg: 'Too many requests. Please slow down.',
      data: null,
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Not looked at, so not created.
    const r = await h.getSigned('/v1/order/getOrderStatus', m, 'good-1');
    expect(r.status).toBe(404);
    // Another address is served as usual.
    expect((await post('198.51.100.4', data('good-2'))).status).toBe(200);
  });

  it('admits the address again once its failures have aged out of the window', async () => {
    for (let i = 0; i < 30; i++) await post('203.0.113.9', data(`bad-${i}`), { sign: badSign });
    expect((await post('203.0.113.9', data('late'))).status).toBe(429);
    h.clock.advance(120_000);
    expect((await post('203.0.113.9', data('late'))).status).toBe(200);
  });

  it('counts failures of the signed GETs and the checkout page under the same address', async () => {
    const query = (path: string) =>
      h.app.request(`${path}?orderId=o-1&sign=${signData('guess', 'o-1')}`, {}, from('203.0.113.9'));
    for (let i = 0; i < 10; i++) {
      expect((await query('/v1/order/pay')).status).toBe(401);
      expect((await query('/v1/order/getOrderStatus')).status).toBe(401);
      expect((await query('/checkout')).status).toBe(401);
    }
    expect((await query('/v1/order/getOrderStatus')).status).toBe(429);
    expect((await query('/checkout')).status).toBe(429);
    expect((await post('203.0.113.9', data('x'))).status).toBe(429);
  });

  it('counts a stale timestamp and a reused nonce as failures too, not a bad amount', async () => {
    const stale = (i: number) =>
      h.app.request(
        '/v1/order/createCollection',
        {
          method: 'POST',
          body: envelope(m.token, data(`s-${i}`), { timestamp: Math.floor(h.clock.now() / 1000) - 3600 }),
        },
        from('203.0.113.9'),
      );
    for (let i = 0; i < 20; i++) expect((await stale(i)).status).toBe(401);
    for (let i = 0; i < 20; i++) {
      const res = await post('203.0.113.9', { ...data(`a-${i}`), amount: '-1' });
      expect(res.status).toBe(400);
    }
    for (let i = 0; i < 11; i++) {
      const res = await h.app.request(
        '/v1/order/createCollection',
        {
          method: 'POST',
          body: envelope(m.token, data('n'), { timestamp: Math.floor(h.clock.now() / 1000), nonce: 'same' }),
        },
        from('203.0.113.9'),
      );
      expect(res.status).toBe(i === 0 ? 200 : 401);
    }
    expect((await post('203.0.113.9', data('after'))).status).toBe(429);
  });

  it('is configurable (auth.failedAttempts), and counts an IPv6 client by its /64', async () => {
    await h.close();
    h = await makeHarness({ auth: { failedAttempts: { limit: 3, windowSeconds: 10 } } });
    m = await h.merchant('V3');
    await post('2001:db8:1:2::1', data('a'), { sign: badSign });
    await post('2001:db8:1:2::ff:2', data('b'), { sign: badSign });
    await post('2001:db8:1:2:0:0:0:3', data('c'), { sign: badSign });
    expect((await post('2001:db8:1:2::4', data('d'))).status).toBe(429);
    expect((await post('2001:db8:1:3::4', data('e'))).status).toBe(200);
  });

  it('is divided among API processes: one of three refuses after ceil(limit / 3) failures', async () => {
    await h.close();
    h = await makeHarness({
      api: { processes: 3 },
      auth: { failedAttempts: { limit: 7, windowSeconds: 10 } },
    });
    m = await h.merchant('V3');
    for (let i = 0; i < 3; i++) await post('203.0.113.20', data(`bad-${i}`), { sign: badSign });
    expect((await post('203.0.113.20', data('good'))).status).toBe(429);
  });

  it('never re-reads or decrypts the merchant list for a signature that matches nobody', async () => {
    expect((await post('198.51.100.4', data('warm'))).status).toBe(200);
    const open = vi.spyOn(h.rt.box as NonNullable<typeof h.rt.box>, 'open');
    for (let i = 0; i < 25; i++) {
      expect((await post(`198.51.100.${10 + i}`, data(`bad-${i}`), { sign: badSign })).status).toBe(401);
      h.clock.advance(400); // past the directory's one-second cache several times over
    }
    expect(open).not.toHaveBeenCalled();
    // A merchant created meanwhile (another process) is found by the next periodic re-read, which
    // opens its secrets only.
    const late = await h.merchant('V3');
    h.clock.advance(1000);
    const res = await h.app.request(
      '/v1/order/createCollection',
      {
        method: 'POST',
        body: envelope(late.token, data('late'), { timestamp: Math.floor(h.clock.now() / 1000) }),
      },
      from('198.51.100.4'),
    );
    expect(res.status).toBe(200);
    expect(open.mock.calls.map((c) => c[1])).toEqual([
      `${late.merchantId}:token`,
      `${late.merchantId}:webhook`,
    ]);
  });

  it('warns once per address and window when it starts refusing, and logs each failure at info', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (s: string) => lines.push(JSON.parse(s)) });
    const app = createApp({ ...h.rt, logger });
    for (let i = 0; i < 40; i++) await post('203.0.113.9', data(`bad-${i}`), { sign: badSign, app });
    const warns = lines.filter((l) => l.level === 40);
    expect(warns).toHaveLength(1);
    expect(warns[0]).toMatchObject({ client: '203.0.113.9', limit: 30 });
    const refusals = lines.filter((l) => l.msg === 'request refused' && l.code === 'invalid_signature');
    expect(refusals).toHaveLength(30);
    expect(refusals.every((l) => l.level === 30 && l.err === undefined)).toBe(true);
  });
});
