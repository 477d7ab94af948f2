import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { signData } from '../../../test/helpers/signing.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

/**
 * The checkout link's `sign` (paymentUrl) belongs to the customer: it opens the order's page,
 * /v1/order/pay and /v1/order/getOrderStatus, never the merchant's /v1/order/status, and whatever a
 * customer does with it spends that order's limits only.
 */
let h: Harness;
let m: MerchantCreated;
let link: { orderId: string; sign: string };

const customer = { incoming: { socket: { remoteAddress: '203.0.113.50' } } };
const merchantServer = { incoming: { socket: { remoteAddress: '198.51.100.7' } } };

async function collection(orderId: string) {
  const r = await h.post('/v1/order/createCollection', m, {
    amount: '5',
    symbol: 'USDT',
    chain: 'TRON',
    orderId,
  });
  const url = new URL(((await r.json()) as { data: { paymentUrl: string } }).data.paymentUrl);
  return { orderId, sign: url.searchParams.get('sign') as string };
}

beforeEach(async () => {
  h = await makeHarness({ rateLimits: { status: { limit: 5, windowSeconds: 10 } } });
  m = await h.merchant('V3');
  link = await collection('CS-1');
  await collection('CS-2');
  h.clock.advance(20_000);
});
afterEach(() => h.close());

describe('the checkout link sign', () => {
  it('is not the merchant sign, and opens the order page, pay and getOrderStatus', async () => {
    expect(link.sign).not.toBe(signData(m.token, link.orderId));
    const q = `orderId=${link.orderId}&sign=${link.sign}`;
    expect((await h.app.request(`/checkout?${q}`, {}, customer)).status).toBe(200);
    expect((await body(await h.app.request(`/v1/order/pay?${q}`, {}, customer))).data).toMatchObject({
      orderId: 'CS-1',
      status: 'INIT',
    });
    h.clock.advance(1000);
    expect(await body(await h.app.request(`/v1/order/getOrderStatus?${q}`, {}, customer))).toEqual({
      code: 200,
      msg: 'success',
      data: { status: 'INIT' },
    });
  });

  it('never opens /v1/order/status, and opens no other order', async () => {
    const status = await h.app.request(`/v1/order/status/CS-1?sign=${link.sign}`, {}, customer);
    expect(status.status).toBe(401);
    expect(await body(status)).toEqual({ code: 401, msg: 'Invalid signature.', data: null });
    const other = await h.app.request(`/v1/order/pay?orderId=CS-2&sign=${link.sign}`, {}, customer);
    expect(other.status).toBe(401);
  });

  it('lets pay and getOrderStatus keep accepting the merchant’s own sign', async () => {
    expect((await h.getSigned('/v1/order/pay', m, 'CS-1')).status).toBe(200);
    expect((await h.getSigned('/v1/order/getOrderStatus', m, 'CS-1')).status).toBe(200);
  });

  it('cannot lock the merchant out of its status queries, however hard a customer replays it', async () => {
    // Eight loops of a customer replaying the link (the run), on every endpoint it could try.
    for (let loop = 0; loop < 8; loop++) {
      for (const path of [
        `/v1/order/pay?orderId=CS-1&sign=${link.sign}`,
        `/v1/order/getOrderStatus?orderId=CS-1&sign=${link.sign}`,
        `/checkout/state?orderId=CS-1&sign=${link.sign}`,
        `/v1/order/status/CS-1?sign=${link.sign}`,
        `/v1/order/status/CS-2?sign=${link.sign}`,
      ])
        await h.app.request(path, {}, customer);
    }
    // The merchant's own budget (5 per 10 s here) is whole: five answers, then its own 429.
    for (let i = 0; i < 5; i++) {
      const res = await h.app.request(
        `/v1/order/status/CS-2?sign=${signData(m.token, 'CS-2')}`,
        {},
        merchantServer,
      );
      expect(res.status).toBe(200);
    }
    const sixth = await h.app.request(
      `/v1/order/status/CS-2?sign=${signData(m.token, 'CS-2')}`,
      {},
      merchantServer,
    );
    expect(sixth.status).toBe(429);
  });
});
