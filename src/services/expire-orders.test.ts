import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../test/helpers/harness.ts';
import { recordScan } from '../db/repositories/chain-scan-write.ts';
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

/** The chain's scanner has read up to a block stamped `atMs` (what a scan pass writes). */
function scannedTo(chain: string, atMs: number, height = 100) {
  recordScan(h.db, {
    chain,
    transfers: [],
    statusChanges: [],
    transitions: [],
    cursor: { height, heightHash: `0x${height}`, heightTime: Math.floor(atMs / 1000), finalHeight: height },
    now: h.clock.now(),
  });
}

const collection = (orderId: string, chain = 'TRON') =>
  h.post('/v1/order/createCollection', m, {
    amount: '2',
    symbol: chain === 'ETH' ? 'USDC' : 'USDT',
    chain,
    orderId,
  });
const statusOf = async (orderId: string) =>
  (await body<{ status: string }>(await h.getSigned('/v1/order/status/{orderId}', m, orderId))).data.status;

describe('expireOrders', () => {
  it('expires an unpaid collection after its time to live, with a reason and an ORDER_EXPIRED event', async () => {
    await h.post('/v1/order/createCollection', m, {
      amount: '2',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'E-1',
    });
    h.clock.advance(1799_000);
    scannedTo('TRON', h.clock.now() + 60_000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    h.clock.advance(1_000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 1 });
    h.clock.advance(200);
    const r = await body<{ status: string; reason: string }>(
      await h.getSigned('/v1/order/status/{orderId}', m, 'E-1'),
    );
    expect(r.data.status).toBe('EXPIRED');
    expect(r.data.reason).toBe('No payment was received before the order expired.');
    const events = h.db.select().from(webhookEvents).all();
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
    scannedTo('TRON', h.clock.now());
    await expireOrders(h.rt);
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    expect(h.db.select().from(webhookEvents).all()).toHaveLength(1);
  });

  it('never expires a collection on a chain that was never scanned (its RPC down from the first start)', async () => {
    await collection('E-4');
    h.clock.advance(24 * 3600_000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    expect(await statusOf('E-4')).toBe('INIT');
    expect(h.db.select().from(webhookEvents).all()).toHaveLength(0);
  });

  it('expires a collection only once the scanner has read a block stamped after its expiry', async () => {
    await collection('E-5');
    const expiresAt = h.clock.now() + 1800_000;
    h.clock.advance(3600_000);
    scannedTo('TRON', expiresAt - 1000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    scannedTo('TRON', expiresAt); // a block stamped at the very expiry can still be followed by one as old
    expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
    scannedTo('TRON', expiresAt + 1000);
    expect(await expireOrders(h.rt)).toEqual({ expired: 1 });
    expect(await statusOf('E-5')).toBe('EXPIRED');
  });

  it('still expires the orders of a scanned chain when more than a batch wait on a chain never scanned', async () => {
    for (let i = 0; i < 3; i++) await collection(`E-down-${i}`, 'ETH');
    h.clock.advance(1000);
    await collection('E-6');
    h.clock.advance(3600_000);
    scannedTo('TRON', h.clock.now());
    expect(await expireOrders(h.rt, 2)).toEqual({ expired: 1 });
    expect(await statusOf('E-6')).toBe('EXPIRED');
    expect(await statusOf('E-down-0')).toBe('INIT');
  });
});
