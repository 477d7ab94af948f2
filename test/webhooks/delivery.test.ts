import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/domain/order.ts';
import { NO_CALLBACK_ERROR } from '../../src/services/attempt-webhook.ts';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import { type MerchantCreated, setMerchantCallback } from '../../src/services/manage-merchants.ts';
import { resendWebhook } from '../../src/services/resend-webhook.ts';
import { freePort } from '../helpers/cli.ts';
import { type Harness, makeHarness, T0 } from '../helpers/harness.ts';
import { allEvents, attemptRows, eventRow, moveOrder, openOrder } from '../helpers/webhook-orders.ts';
import { type Receiver, startReceiver, verifyWebhook } from '../helpers/webhook-receiver.ts';

/**
 * Webhook delivery against real HTTP receivers on 127.0.0.1. The database clock is the harness's
 * manual clock, so retries are reached by moving it, not by waiting; only request timeouts use real
 * time (a few hundred milliseconds).
 */

const HOUR = 3600_000;
let h: Harness;
const receivers: Receiver[] = [];

async function setup(webhooks: Record<string, unknown> = {}) {
  h = await makeHarness({ webhooks: { timeoutMs: 300, pollIntervalMs: 20, ...webhooks } });
  return h;
}

async function receiver(port?: number) {
  const r = await startReceiver(port);
  receivers.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  h?.close();
});

const deliver = () => deliverWebhooks(h.rt);

async function paidOrder(m: MerchantCreated, orderId: string): Promise<Order> {
  return moveOrder(h, await openOrder(h, m, orderId), 'PENDING');
}

describe('webhook delivery', () => {
  it('signs each delivery so that an independent check of both signature schemes passes', async () => {
    await setup();
    const rx = await receiver();
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'S-1');

    expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(rx.received).toHaveLength(1);
    const r = rx.received[0]!;
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toBe('application/json');
    const body = verifyWebhook(m.webhookSecret, r);
    expect(Object.keys(body)).toEqual(['eventId', 'notifyType', 'timestamp', 'nonce', 'data', 'sign']);
    expect(body.eventId).toMatch(/^evt_[0-9a-z]{20}$/);
    expect(body.notifyType).toBe('ORDER_PENDING');
    expect(body.timestamp).toBe(Math.floor(T0 / 1000));
    expect(body.data).toMatchObject({
      orderId: 'S-1',
      status: 'PENDING',
      orderType: 'COLLECTION',
      amount: '2',
    });
    const stored = allEvents(h)[0]!;
    expect(body.eventId).toBe(stored.id);
    // the data text inside the body is the stored snapshot, byte for byte
    expect(r.body).toContain(`"data":${stored.data},`);

    // the check is not vacuous: a wrong secret or a changed byte fails it
    expect(() => verifyWebhook('0'.repeat(64), r)).toThrow();
    expect(() => verifyWebhook(m.webhookSecret, { ...r, body: r.body.replace('"2"', '"3"') })).toThrow();
    expect(() =>
      verifyWebhook(m.webhookSecret, { ...r, headers: { ...r.headers, 'webhook-timestamp': '1' } }),
    ).toThrow();
  });

  it('delivers on the 4th attempt when the receiver answers 500 three times, same eventId, new nonce each time', async () => {
    await setup();
    const rx = await receiver();
    rx.reply((_, n) => (n <= 3 ? { status: 500, body: 'database is down' } : { status: 200 }));
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'R-1');
    const [event] = allEvents(h);

    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
      const row = eventRow(h, event!.id);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: attempt,
        lastError: 'HTTP 500: database is down',
      });
      // not due again until its backoff has passed
      expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
      expect(rx.received).toHaveLength(attempt);
      h.clock.set(row.nextAttemptAt);
    }
    expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0 });

    expect(rx.received).toHaveLength(4);
    const bodies = rx.received.map((r) => verifyWebhook(m.webhookSecret, r));
    expect(new Set(bodies.map((b) => b.eventId))).toEqual(new Set([event!.id]));
    expect(new Set(rx.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event!.id]));
    expect(new Set(bodies.map((b) => b.nonce)).size).toBe(4);
    expect(eventRow(h, event!.id)).toMatchObject({ status: 'delivered', attempts: 4, lastError: null });

    const attempts = attemptRows(h, event!.id);
    expect(attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(attempts.every((a) => a.latencyMs >= 0)).toBe(true);
    // exponential backoff: each wait at least as long as the one before, the first within [30 s, 60 s]
    const waits = attempts.slice(1).map((a, i) => a.attemptedAt - attempts[i]!.attemptedAt);
    expect(waits[0]).toBeGreaterThanOrEqual(30_000);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
    expect(waits[1]).toBeGreaterThanOrEqual(waits[0]!);
    expect(waits[2]).toBeGreaterThanOrEqual(waits[1]!);
  });

  it('loses nothing while the receiver is down and keeps each order’s events in order when it comes back', async () => {
    await setup();
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
    await setup();
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
    await setup({ timeoutMs: 250 });
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

  it('treats a 3xx as a failure and does not follow the redirect', async () => {
    await setup();
    const rx = await receiver();
    rx.reply((r) =>
      r.path === '/hook'
        ? { status: 302, headers: { location: `http://127.0.0.1:${rx.port}/elsewhere` } }
        : { status: 200 },
    );
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'X-1');
    for (const status of [301, 302, 307, 308]) {
      rx.reply((r) =>
        r.path === '/hook'
          ? { status, headers: { location: `http://127.0.0.1:${rx.port}/elsewhere` } }
          : { status: 200 },
      );
      expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
      h.clock.set(allEvents(h)[0]!.nextAttemptAt);
    }
    expect(rx.received.map((r) => r.path)).toEqual(['/hook', '/hook', '/hook', '/hook']);
    const [event] = allEvents(h);
    expect(event).toMatchObject({ status: 'pending', attempts: 4 });
    expect(event!.lastError).toContain('HTTP 308: redirect to');
    expect(event!.lastError).toContain('not followed');
  });

  it('does not let a hanging receiver hold up another merchant', async () => {
    await setup({ timeoutMs: 400, concurrency: 8, perMerchantConcurrency: 4 });
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
    await setup({ concurrency: 5, perMerchantConcurrency: 8 });
    const rx = await receiver();
    rx.reply(() => ({ status: 200, delayMs: 40 }));
    const merchants = await Promise.all([1, 2, 3].map(() => h.merchant('V3', rx.url)));
    for (let i = 0; i < 18; i++) await paidOrder(merchants[i % 3]!, `C-${i}`);
    expect(await deliver()).toEqual({ delivered: 18, retrying: 0, failed: 0 });
    expect(rx.maxOpen()).toBe(5);
  });

  it('keeps the events of a merchant without a callback URL waiting, and delivers them once one is set', async () => {
    await setup();
    const m = await h.merchant('V3');
    await paidOrder(m, 'N-1');
    expect(await deliver()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    const [event] = allEvents(h);
    expect(event).toMatchObject({ status: 'pending', attempts: 1, lastError: NO_CALLBACK_ERROR });
    expect(attemptRows(h, event!.id)).toEqual([
      expect.objectContaining({ statusCode: null, latencyMs: 0, error: NO_CALLBACK_ERROR }),
    ]);

    const rx = await receiver();
    await setMerchantCallback(h.rt, m.merchantId, rx.url);
    h.clock.set(event!.nextAttemptAt);
    expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(verifyWebhook(m.webhookSecret, rx.received[0]!).eventId).toBe(event!.id);
  });

  it('fails an event after three days of failures, and a resend delivers it with the same eventId', async () => {
    await setup();
    const rx = await receiver();
    rx.reply(() => ({ status: 500 }));
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'F-1');
    const [event] = allEvents(h);
    const deadline = T0 + 3 * 24 * HOUR;

    let runs = 0;
    while (eventRow(h, event!.id).status === 'pending') {
      await deliver();
      const row = eventRow(h, event!.id);
      if (row.status === 'pending') {
        expect(row.nextAttemptAt).toBeLessThanOrEqual(deadline);
        h.clock.set(row.nextAttemptAt);
      }
      if (++runs > 100) throw new Error('never gave up');
    }
    const attempts = attemptRows(h, event!.id);
    expect(eventRow(h, event!.id)).toMatchObject({ status: 'failed', lastError: 'HTTP 500' });
    expect(attempts.at(-1)!.attemptedAt).toBe(deadline);
    expect(attempts.at(-2)!.attemptedAt).toBeLessThan(deadline);
    // exponential: 16–22 attempts fit in three days (jitter decides), not hundreds
    expect(attempts.length).toBeGreaterThanOrEqual(16);
    expect(attempts.length).toBeLessThanOrEqual(22);
    // the gaps grow up to the 12 h cap
    const gaps = attempts.slice(1).map((a, i) => a.attemptedAt - attempts[i]!.attemptedAt);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(12 * HOUR);
    expect(gaps.slice(0, 9).every((g, i) => i === 0 || g >= gaps[i - 1]!)).toBe(true);
    expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 0 });

    rx.reply(() => ({ status: 200 }));
    h.clock.advance(HOUR);
    expect(await resendWebhook(h.rt, event!.id)).toEqual({
      eventId: event!.id,
      previousStatus: 'failed',
      status: 'pending',
    });
    expect(await deliver()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    const last = rx.received.at(-1)!;
    expect(verifyWebhook(m.webhookSecret, last).eventId).toBe(event!.id);
    expect(eventRow(h, event!.id).status).toBe('delivered');
  });

  it('fails an event at once when the receiver answers 410 Gone', async () => {
    await setup();
    const rx = await receiver();
    rx.reply(() => ({ status: 410 }));
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'G-1');
    expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 1 });
    expect(allEvents(h)[0]).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 410' });
  });

  it('counts any 2xx as delivered', async () => {
    await setup();
    const rx = await receiver();
    const codes = [200, 201, 202, 204, 299];
    rx.reply((_, n) => ({ status: codes[n - 1] ?? 200 }));
    const m = await h.merchant('V3', rx.url);
    for (const [i] of codes.entries()) await paidOrder(m, `OK-${i}`);
    expect(await deliver()).toEqual({ delivered: codes.length, retrying: 0, failed: 0 });
  });
});
