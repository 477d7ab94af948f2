import { describe, expect, it } from 'vitest';
import { NO_CALLBACK_ERROR } from '../../src/services/attempt-webhook.ts';
import { setMerchantCallback } from '../../src/services/manage-merchants.ts';
import { resendWebhook } from '../../src/services/resend-webhook.ts';
import { T0 } from '../helpers/harness.ts';
import { HOUR, useWebhookDelivery } from '../helpers/webhook-delivery.ts';
import { allEvents, attemptRows, eventRow } from '../helpers/webhook-orders.ts';
import { verifyWebhook } from '../helpers/webhook-receiver.ts';

/**
 * What each answer of a merchant's receiver does to a webhook event, against real HTTP receivers on
 * 127.0.0.1: signed deliveries, retries after failures (a 5xx, a 3xx, no callback URL), giving up after
 * three days or at once on 410 Gone, and any 2xx counted as delivered. The database clock is the
 * harness's manual clock, so retries are reached by moving it, not by waiting.
 */

const { setup, receiver, deliver, paidOrder } = useWebhookDelivery();

describe('webhook delivery', () => {
  it('signs each delivery so that an independent check of both signature schemes passes', async () => {
    const h = await setup();
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
    const h = await setup();
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

  it('treats a 3xx as a failure and does not follow the redirect', async () => {
    const h = await setup();
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

  it('keeps the events of a merchant without a callback URL waiting, and delivers them once one is set', async () => {
    const h = await setup();
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
    const h = await setup();
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
    const h = await setup();
    const rx = await receiver();
    rx.reply(() => ({ status: 410 }));
    const m = await h.merchant('V3', rx.url);
    await paidOrder(m, 'G-1');
    expect(await deliver()).toEqual({ delivered: 0, retrying: 0, failed: 1 });
    expect(allEvents(h)[0]).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 410' });
  });

  it('counts any 2xx as delivered', async () => {
    const h = await setup();
    const rx = await receiver();
    const codes = [200, 201, 202, 204, 299];
    rx.reply((_, n) => ({ status: codes[n - 1] ?? 200 }));
    const m = await h.merchant('V3', rx.url);
    for (const [i] of codes.entries()) await paidOrder(m, `OK-${i}`);
    expect(await deliver()).toEqual({ delivered: codes.length, retrying: 0, failed: 0 });
  });
});
