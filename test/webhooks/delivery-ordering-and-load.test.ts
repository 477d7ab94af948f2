import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.ts';
import { HOUR, useWebhookDelivery } from '../helpers/webhook-delivery.ts';
import { allEvents, attemptRows, eventRow, moveOrder, openOrder } from '../helpers/webhook-orders.ts';
import { verifyWebhook } from '../helpers/webhook-receiver.ts';

/**
 * Webhook delivery when receivers are down, slow or many, against real HTTP receivers on 127.0.0.1:
 * nothing lost and each order's events kept in order, timeouts retried, one hanging receiver holding
 * up no other merchant, concurrency bounded. The database clock is the harness's manual clock, so
 * retries are reached by moving it; only request timeouts use real time (a few hundred milliseconds).
 */

const { setup, receiver, deliver, paidOrder } = useWebhookDelivery();

describe('webhook delivery', () => {
  it('loses nothing while the receiver is down and keeps each order’s events in order when it comes back', async () => {
    const h = await setup();
    const port = await freePort(); // nobody listens: connection refused
    const m = await h.merchant('V3', `http://127.0.0.1:${port}/hook`);
    const a = await openOrder(h, m, 'D-A');
    const b = await openOrder(h, m, 'D-B');
    let oa = moveOrder(h, a, 'PENDING');
    let ob = moveOrder(h, b, 'PENDING');
    h.clock.advance(1000);
    oa = moveOrder(h, oa, 'PENDING_CONFIRMATION');
    ob = moveOrder(h, ob, 'PENDING_CONFIRMATION');
    h.clock.advance(1000);
    moveOrder(h, oa, 'SUCCESS');
    moveOrder(h, ob, 'EXPIRED');
    expect(allEvents(h)).toHaveLength(6);

    // down: only the first event of each order is tried; the later ones wait behind it
    expect(await deliver()).toEqual({ delivered: 0, retrying: 2, failed: 0 });
    const tried = allEvents(h).filter((e) => e.attempts > 0);
    expect(tried.map((e) => e.notifyType)).toEqual(['ORDER_PENDING', 'ORDER_PENDING']);
    expect(tried[0]!.lastError).toBe('connection refused (ECONNREFUSED)');
    h.clock.advance(HOUR);
    expect(await deliver()).toEqual({ delivered: 0, retrying: 2, failed: 0 });
    expect(allEvents(h).filter((e) => e.attempts > 0)).toHaveLength(2);

    // back up on the same port
    const rx = await receiver(port);
    h.clock.advance(HOUR);
    expect(await deliver()).toEqual({ delivered: 6, retrying: 0, failed: 0 });
    expect(allEvents(h).every((e) => e.status === 'delivered')).toBe(true);
    const seen = rx.received.map((r) => verifyWebhook(m.webhookSecret, r));
    const byOrder = (id: string) => seen.filter((b) => b.data.orderId === id).map((b) => b.notifyType);
    expect(byOrder('D-A')).toEqual(['ORDER_PENDING', 'ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
    expect(byOrder('D-B')).toEqual(['ORDER_PENDING', 'ORDER_PENDING_CONFIRMATION', 'ORDER_EXPIRED']);
    // each event went out only after the previous one of its order was answered
    for (const id of ['D-A', 'D-B']) {
      const times = rx.received.filter((r) => JSON.parse(r.body).data.orderId === id).map((r) => r.at);
      expect([...times].sort((x, y) => x - y)).toEqual(times);
    }
  });

  it('holds a later event of an order while the earlier one is retried, then sends both in order', async () => {
    const h = await setup();
    const rx = await receiver();
    rx.reply((r) =>
      JSON.parse(r.body).notifyType === 'ORDER_PENDING' && rx.received.length === 1
        ? { status: 503 }
        : { status: 200 },
    );
    const m = await h.merchant('V3', rx.url);
    const o = await paidOrder(m, 'H-1');
    moveOrder(h, o, 'PENDING_CONFIRMATION');

    expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    expect(rx.received.map((r) => JSON.parse(r.body).notifyType)).toEqual(['ORDER_PENDING']);
    const [first, second] = allEvents(h);
    expect(second!.attempts).toBe(0);
    h.clock.set(first!.nextAttemptAt);
    expect(await deliver()).toEqual({ delivered: 2, retrying: 0, failed: 0 });
    expect(rx.received.map((r) => JSON.parse(r.body).notifyType)).toEqual([
      'ORDER_PENDING',
      'ORDER_PENDING',
      'ORDER_PENDING_CONFIRMATION',
    ]);
  });

  it('times out a receiver that never answers and retries it', async () => {
    const h = await setup({ timeoutMs: 250 });
    const rx = await receiver();
    rx.reply((_, n) => (n === 1 ? 'hang' : { status: 204 }));
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'T-1');
    const [event] = allEvents(h);

    const started = Date.now();
    expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    expect(Date.now() - started).toBeLessThan(2_000);
    const [first] = attemptRows(h, event!.id);
    expect(first).toMatchObject({ statusCode: null, error: 'no answer within 250 ms' });
    expect(first!.latencyMs).toBeGreaterThanOrEqual(240);
    expect(eventRow(h, event!.id).status).toBe('pending');

    h.clock.set(eventRow(h, event!.id).nextAttemptAt);
    expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(rx.received).toHaveLength(2);
    expect(attemptRows(h, event!.id).map((a) => a.statusCode)).toEqual([null, 204]);
  });

  it('does not let a hanging receiver hold up another merchant', async () => {
    const h = await setup({ timeoutMs: 400, concurrency: 8, perMerchantConcurrency: 4 });
    const slow = await receiver();
    slow.reply(() => 'hang');
    const fast = await receiver();
    const a = await h.merchant('V3', slow.url);
    const b = await h.merchant('V3', fast.url);
    // the slow merchant's events are older, so they are claimed first
    for (let i = 0; i < 10; i++) await paidOrder(a, `A-${i}`);
    h.clock.advance(1000);
    for (let i = 0; i < 10; i++) await paidOrder(b, `B-${i}`);

    const run = deliver();
    await fast.waitFor(10, 5_000);
    // all of B arrived while A's first requests were still hanging, and A held no more than its share
    expect(slow.received).toHaveLength(4);
    expect(Math.max(...fast.received.map((r) => r.at))).toBeLessThan(slow.received[0]!.at + 400);
    const summary = await run;
    expect(summary.delivered).toBe(10);
    expect(summary.retrying).toBe(10);
  });

  it('keeps requests concurrent but never more in flight than the configured concurrency', async () => {
    const h = await setup({ concurrency: 5, perMerchantConcurrency: 8 });
    const rx = await receiver();
    rx.reply(() => ({ status: 200, delayMs: 40 }));
    const merchants = await Promise.all([1, 2, 3].map(() => h.merchant('V3', rx.url)));
    for (let i = 0; i < 18; i++) await paidOrder(merchants[i % 3]!, `C-${i}`);
    expect(await deliver()).toEqual({ delivered: 18, retrying: 0, failed: 0 });
    expect(rx.maxOpen()).toBe(5);
  });
});
