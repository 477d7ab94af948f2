import { afterEach, describe, expect, it } from 'vitest';
import { applyOrderTransitions, findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import type { Order } from '../../src/domain/order.ts';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import {
  createMerchant,
  type MerchantCreated,
  setMerchantCompat,
} from '../../src/services/manage-merchants.ts';
import { resendWebhook } from '../../src/services/resend-webhook.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import { allEvents } from '../helpers/webhook-orders.ts';
import { useReceivers, verifyWebhook } from '../helpers/webhook-receiver.ts';
import {
  javaSdkVerifyWebhook,
  nodeSdkParseWebhook,
  nodeSdkRequestBody,
  nodeSdkVerifyWebhook,
} from '../helpers/xpay-sdk.ts';

/**
 * Kassa's worker delivering a whole XPay-mode order's events to a real receiver, which both SDKs'
 * rules (test/helpers/xpay-sdk.ts) must accept; the events XPay never sends are skipped, and the
 * interface's merchants keep the interface's webhooks.
 */

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});
const receiver = useReceivers();

async function xpayOrder(m: MerchantCreated, data: Record<string, unknown>): Promise<Order> {
  const text = nodeSdkRequestBody(m.webhookSecret, data, {
    timestamp: Math.floor((h as Harness).clock.now() / 1000),
    nonce: `n-${data.orderId}`,
  });
  const res = await (h as Harness).app.request('/v1/order/createCollection', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': m.token },
    body: text,
  });
  expect(await res.json()).toMatchObject({ code: 200 });
  return findOrderByMerchantOrderId((h as Harness).db, m.merchantId, data.orderId as string) as Order;
}

function move(order: Order, patch: Parameters<typeof applyOrderTransitions>[1][number]['patch']): Order {
  const [moved] = applyOrderTransitions((h as Harness).db, [{ order, patch }], (h as Harness).clock.now());
  return moved as Order;
}

describe('delivery to a merchant in XPay mode', () => {
  it('sends every event XPay sends in XPay’s shape, accepted by both SDKs; skips the ones XPay never sends', async () => {
    const rx = await receiver();
    h = await makeHarness({ webhooks: { timeoutMs: 2000, pollIntervalMs: 20 } });
    const m = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay', callbackUrl: rx.url });
    const tx = {
      chain: 'TRON' as const,
      symbol: 'USDT',
      txid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
      from: 'THyM2WSA3fCNUzTQ9hm4Uq2BtNiJpa8tzL',
      to: '',
      amountBase: 1_500000n,
      blockNum: 73971843,
      confirmedNum: 1,
      status: 'PENDING' as const,
      timestamp: 1752633360,
    };
    let order = await xpayOrder(m, {
      amount: '1.5',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'o-1',
      uid: 'u-1',
    });
    tx.to = order.address;
    order = move(order, {
      status: 'PENDING',
      receivedBase: 1_000000n,
      transaction: { ...tx, amountBase: 1_000000n },
    });
    order = move(order, { status: 'PENDING_CONFIRMATION', receivedBase: 1_500000n, transaction: tx });
    // a reorganisation takes the payment away (ORDER_REVERTED), then it comes back
    order = move(order, { status: 'INIT', receivedBase: 0n, transaction: null });
    order = move(order, { status: 'PENDING_CONFIRMATION', receivedBase: 1_500000n, transaction: tx });
    order = move(order, {
      status: 'SUCCESS',
      actualAmountBase: 1_500000n,
      transaction: { ...tx, confirmedNum: 20, status: 'SUCCESS' },
    });
    const expired = await xpayOrder(m, { amount: '3', symbol: 'USDT', chain: 'TRON', orderId: 'o-2' });
    move(expired, { status: 'EXPIRED', reason: 'No payment was received before the order expired.' });

    // as many rounds as the order's events need (each waits for the one before it)
    for (let i = 0; i < 8; i++) await deliverWebhooks(h.rt);
    const now = Math.floor(h.clock.now() / 1000);
    // events of one order arrive in order; the two orders' events interleave as they may
    const all = rx.received.map((r) => JSON.parse(r.body));
    const of = (id: string) => all.filter((b) => b.data.orderId === id);
    expect(of('o-1').map((b) => b.notifyType)).toEqual([
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_SUCCESS',
    ]);
    expect(of('o-2').map((b) => b.notifyType)).toEqual(['ORDER_EXPIRED']);
    expect(all).toHaveLength(4);
    for (const r of rx.received) {
      expect(Object.keys(JSON.parse(r.body))).toEqual(['sign', 'timestamp', 'nonce', 'notifyType', 'data']);
      expect(r.body).not.toContain('null');
      expect(nodeSdkVerifyWebhook(m.webhookSecret, r.body, now, '', '')).toBe(true);
      expect(nodeSdkParseWebhook(m.webhookSecret, r.body, now)).not.toBeNull();
      expect(javaSdkVerifyWebhook(m.webhookSecret, r.body, now)).toBe(true);
      expect(r.headers['webhook-id']).toMatch(/^evt_/);
    }
    expect(of('o-1')[2]).toEqual({
      sign: expect.stringMatching(/^[0-9a-f]{64}$/),
      timestamp: now,
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      notifyType: 'ORDER_SUCCESS',
      data: {
        orderId: 'o-1',
        uid: 'u-1',
        orderType: 'COLLECTION',
        status: 'SUCCESS',
        amount: '1.5',
        actualAmount: '1.50',
        fee: '0.00',
        transaction: {
          chain: 'TRON',
          symbol: 'USDT',
          blockNum: 73971843,
          txid: tx.txid,
          contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          from: tx.from,
          to: order.address,
          amount: '1500000',
          decimals: 6,
          timestamp: 1752633360000,
          confirmedNum: 20,
          status: 'SUCCESS',
        },
      },
    });
    expect(of('o-2')[0].data).toEqual({
      orderId: 'o-2',
      orderType: 'COLLECTION',
      reason: 'No payment was received before the order expired.',
      status: 'EXPIRED',
      amount: '3',
      fee: '0.00',
    });
    const byType = allEvents(h).map((e) => [e.notifyType, e.status, e.lastError]);
    expect(byType).toContainEqual([
      'ORDER_PENDING',
      'skipped',
      'not sent: XPay never sends ORDER_PENDING, and the merchant is in XPay mode (kassa merchant set-compat)',
    ]);
    expect(byType).toContainEqual([
      'ORDER_REVERTED',
      'skipped',
      'not sent: XPay never sends ORDER_REVERTED, and the merchant is in XPay mode (kassa merchant set-compat)',
    ]);
    expect(byType.filter(([, status]) => status === 'delivered')).toHaveLength(4);
    const attempts = h.db.$client.prepare('SELECT count(*) AS n FROM webhook_attempts').get() as {
      n: number;
    };
    expect(attempts.n).toBe(4);
  });

  it('a skipped event resent after the merchant left XPay mode goes out the interface’s way', async () => {
    const rx = await receiver();
    h = await makeHarness({ webhooks: { timeoutMs: 2000, pollIntervalMs: 20 } });
    const m = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay', callbackUrl: rx.url });
    const order = await xpayOrder(m, { amount: '2', symbol: 'USDT', chain: 'TRON', orderId: 'o-3' });
    move(order, { status: 'PENDING', receivedBase: 1n });
    await deliverWebhooks(h.rt);
    expect(rx.received).toHaveLength(0);
    const [skipped] = allEvents(h);
    expect(skipped?.status).toBe('skipped');

    await setMerchantCompat(h.rt, m.merchantId, 'none');
    h.clock.advance(1000);
    await resendWebhook(h.rt, skipped?.id as string);
    await deliverWebhooks(h.rt);
    expect(rx.received).toHaveLength(1);
    const body = verifyWebhook(m.webhookSecret, rx.received[0] as never);
    expect(body.notifyType).toBe('ORDER_PENDING');
  });

  it('the interface’s merchants keep the interface’s webhooks, ORDER_PENDING included', async () => {
    const rx = await receiver();
    h = await makeHarness({ webhooks: { timeoutMs: 2000, pollIntervalMs: 20 } });
    const m = await createMerchant(h.rt, { kind: 'V3', callbackUrl: rx.url });
    const res = await h.post('/v1/order/createCollection', m, {
      amount: '2',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'o-4',
    });
    expect(res.status).toBe(200);
    const order = findOrderByMerchantOrderId(h.db, m.merchantId, 'o-4') as Order;
    move(order, { status: 'PENDING', receivedBase: 1n });
    await deliverWebhooks(h.rt);
    expect(rx.received).toHaveLength(1);
    const body = verifyWebhook(m.webhookSecret, rx.received[0] as never);
    expect(Object.keys(body)).toEqual(['eventId', 'notifyType', 'timestamp', 'nonce', 'data', 'sign']);
  });
});

describe('a test event to a merchant in XPay mode', () => {
  it('is signed XPay’s way: the node SDK verifies it; the Java SDK knows no WEBHOOK_TEST type', async () => {
    const rx = await receiver();
    h = await makeHarness();
    const m = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay', callbackUrl: rx.url });
    const { sendTestWebhook } = await import('../../src/services/send-test-webhook.ts');
    expect((await sendTestWebhook(h.rt, m.merchantId)).delivered).toBe(true);
    const r = rx.received[0] as { body: string };
    const body = JSON.parse(r.body);
    expect(Object.keys(body)).toEqual(['sign', 'timestamp', 'nonce', 'notifyType', 'data']);
    expect(body.notifyType).toBe('WEBHOOK_TEST');
    expect(body.data).toMatchObject({ test: true, merchantId: m.merchantId });
    expect(nodeSdkVerifyWebhook(m.webhookSecret, r.body, body.timestamp, '', '')).toBe(true);
    expect(() => javaSdkVerifyWebhook(m.webhookSecret, r.body, body.timestamp)).toThrow(
      /cannot read notifyType/,
    );
  });
});
