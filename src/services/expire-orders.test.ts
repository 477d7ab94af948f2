import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../test/helpers/harness.ts';
import { webhookEvents } from '../db/schema/webhook-events.ts';
import { expireOrders } from './expire-orders.ts';
import type { MerchantCreated } from './manage-merchants.ts';

let h: Harness;
let m: MerchantCreated;

beforeEach(async () => {
  h = await makeHarness();
  m = await h.merchant('V3');
});
afterEach(() => h.close());

describe('expireOrders', () => {
  it('expires an unpaid collection after its time to live, with a reason and an ORDER_EXPIRED event', async () => {
    await h.post('/v1/order/createCollection', m, {
      amount: '2',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'E-1',
    });
    h.clock.advance(1799_000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    h.clock.advance(1_000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 1 });
    h.clock.advance(200);
    const r = await body<{ status: string; reason: string }>(
      await h.getSigned('/v1/order/status/{orderId}', m, 'E-1'),
    );
    expect(r.data.status).toBe('EXPIRED');
    expect(r.data.reason).toBe('No payment was received before the order expired.');
    const events = h.rt.db.select().from(webhookEvents).all();
    expect(events).toHaveLength(1);
    expect(events[0]?.notifyType).toBe('ORDER_EXPIRED');
    expect(JSON.parse(events[0]?.data ?? '{}')).toMatchObject({ orderId: 'E-1', status: 'EXPIRED' });
  });

  it('expires a payout that was never sent', async () => {
    await h.fund(m, 'TRON', 'USDT', '1');
    await h.post('/v1/order/createPayout', m, {
      amount: '1',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'E-2',
      receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    h.clock.advance(1800_000);
    await expireOrders(h.rt);
    const r = await body<{ status: string; reason: string }>(
      await h.getSigned('/v1/order/status/{orderId}', m, 'E-2'),
    );
    expect(r.data).toMatchObject({ status: 'EXPIRED', reason: 'The payout was not sent before it expired.' });
  });

  it('running twice expires nothing more and writes no second event', async () => {
    await h.post('/v1/order/createCollection', m, {
      amount: '2',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'E-3',
    });
    h.clock.advance(3600_000);
    await expireOrders(h.rt);
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    expect(h.rt.db.select().from(webhookEvents).all()).toHaveLength(1);
  });
});
