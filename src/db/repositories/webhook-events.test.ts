import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, makeHarness, T0 } from '../../../test/helpers/harness.ts';
import {
  claimDueWebhookEvents,
  findWebhookEvent,
  insertWebhookEvent,
  recordWebhookAttempt,
  resendWebhookEvent,
  settleAndClaimWebhookEvents,
  type WebhookEvent,
} from './webhook-events.ts';
import { listWebhookAttempts, listWebhookEvents } from './webhook-log.ts';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(() => h.close());

function event(id: string, over: Partial<WebhookEvent> = {}): WebhookEvent {
  const e: WebhookEvent = {
    id,
    merchantId: 'mch_a',
    orderRef: 'ord_1',
    orderVersion: 1,
    notifyType: 'ORDER_PENDING',
    data: '{}',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: T0,
    retryUntil: null,
    lastError: null,
    createdAt: T0,
    deliveredAt: null,
    ...over,
  };
  insertWebhookEvent(h.db, e);
  return e;
}

const claim = (over: Partial<Parameters<typeof claimDueWebhookEvents>[1]> = {}) =>
  claimDueWebhookEvents(h.db, { now: T0, limit: 10, leaseUntil: T0 + 5000, ...over }).map((e) => e.id);

describe('webhook events repository', () => {
  it('claims only due events, oldest first, and only the earliest pending event of each order', () => {
    event('evt_o1v2', { orderVersion: 2 });
    event('evt_o1v1', { orderVersion: 1, createdAt: T0 - 10 });
    event('evt_o2v1', { orderRef: 'ord_2', nextAttemptAt: T0 - 100 });
    event('evt_later', { orderRef: 'ord_3', nextAttemptAt: T0 + 1 });
    event('evt_done', { orderRef: 'ord_4', status: 'delivered' });
    event('evt_test', { orderRef: null, orderVersion: 0 });
    expect(claim()).toEqual(['evt_o2v1', 'evt_o1v1', 'evt_test']);
  });

  it('leases what it claims: nothing is claimed twice until the lease runs out', () => {
    event('evt_a');
    expect(claim()).toEqual(['evt_a']);
    expect(findWebhookEvent(h.db, 'evt_a')?.nextAttemptAt).toBe(T0 + 5000);
    expect(claim({ now: T0 + 4999 })).toEqual([]);
    expect(claim({ now: T0 + 5000 })).toEqual(['evt_a']);
  });

  it('a later event of an order waits while the earlier one is pending, failed frees it, delivered too', () => {
    event('evt_v1', { orderVersion: 1, nextAttemptAt: T0 + 60_000 });
    event('evt_v2', { orderVersion: 2 });
    event('evt_v3', { orderVersion: 3 });
    expect(claim()).toEqual([]);
    recordWebhookAttempt(h.db, {
      attempt: { eventId: 'evt_v1', attemptedAt: T0, statusCode: 500, latencyMs: 3, error: 'HTTP 500' },
      outcome: { status: 'failed' },
      now: T0,
    });
    expect(claim()).toEqual(['evt_v2']);
    recordWebhookAttempt(h.db, {
      attempt: { eventId: 'evt_v2', attemptedAt: T0, statusCode: 200, latencyMs: 3, error: null },
      outcome: { status: 'delivered' },
      now: T0,
    });
    expect(claim()).toEqual(['evt_v3']);
  });

  it('moves the later events of an order behind their head when the head is rescheduled', () => {
    event('evt_v1', { orderVersion: 1 });
    event('evt_v2', { orderVersion: 2 });
    event('evt_other', { orderRef: 'ord_2' });
    expect(claim()).toEqual(['evt_v1', 'evt_other']);
    recordWebhookAttempt(h.db, {
      attempt: { eventId: 'evt_v1', attemptedAt: T0, statusCode: 500, latencyMs: 3, error: 'HTTP 500' },
      outcome: { status: 'pending', nextAttemptAt: T0 + 60_000 },
      now: T0,
    });
    expect(findWebhookEvent(h.db, 'evt_v2')?.nextAttemptAt).toBe(T0 + 60_000);
    expect(findWebhookEvent(h.db, 'evt_other')?.nextAttemptAt).toBe(T0 + 5000);
    expect(claim({ now: T0 + 60_000 })).toEqual(['evt_other', 'evt_v1']);
  });

  it('skips excluded merchants and what `accept` refuses, leasing only what it returns', () => {
    event('evt_a1', { orderRef: 'ord_a1' });
    event('evt_b1', { orderRef: 'ord_b1', merchantId: 'mch_b' });
    event('evt_c1', { orderRef: 'ord_c1', merchantId: 'mch_c' });
    expect(claim({ excludeMerchantIds: ['mch_a'], accept: (e) => e.merchantId !== 'mch_c' })).toEqual([
      'evt_b1',
    ]);
    expect(findWebhookEvent(h.db, 'evt_c1')?.nextAttemptAt).toBe(T0);
    expect(claim({ limit: 1 })).toEqual(['evt_a1']);
  });

  it('records an attempt with its outcome together, and leaves an event that is no longer pending alone', () => {
    event('evt_a');
    const attempt = { eventId: 'evt_a', attemptedAt: T0, statusCode: 503, latencyMs: 12, error: 'HTTP 503' };
    expect(
      recordWebhookAttempt(h.db, {
        attempt,
        outcome: { status: 'pending', nextAttemptAt: T0 + 60_000 },
        now: T0,
      }),
    ).toBe(true);
    expect(findWebhookEvent(h.db, 'evt_a')).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: T0 + 60_000,
      lastError: 'HTTP 503',
    });
    const ok = { ...attempt, attemptedAt: T0 + 60_000, statusCode: 200, error: null };
    expect(
      recordWebhookAttempt(h.db, { attempt: ok, outcome: { status: 'delivered' }, now: T0 + 60_010 }),
    ).toBe(true);
    expect(findWebhookEvent(h.db, 'evt_a')).toMatchObject({
      status: 'delivered',
      attempts: 2,
      deliveredAt: T0 + 60_010,
      lastError: null,
    });
    // a late duplicate attempt is kept in the history but does not change the delivered event
    expect(
      recordWebhookAttempt(h.db, {
        attempt: { ...attempt, attemptedAt: T0 + 61_000 },
        outcome: { status: 'failed' },
        now: T0 + 61_000,
      }),
    ).toBe(false);
    expect(findWebhookEvent(h.db, 'evt_a')).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(listWebhookAttempts(h.db, 'evt_a').map((a) => a.statusCode)).toEqual([503, 200, 503]);
  });

  it('records finished attempts and claims what they freed in one call: the order’s next event', () => {
    event('evt_v1', { orderVersion: 1 });
    event('evt_v2', { orderVersion: 2 });
    expect(claim()).toEqual(['evt_v1']);
    const r = settleAndClaimWebhookEvents(h.db, {
      settle: [
        {
          attempt: { eventId: 'evt_v1', attemptedAt: T0, statusCode: 200, latencyMs: 2, error: null },
          outcome: { status: 'delivered' },
          now: T0 + 1,
        },
        {
          attempt: { eventId: 'evt_gone', attemptedAt: T0, statusCode: 200, latencyMs: 2, error: null },
          outcome: { status: 'delivered' },
          now: T0 + 1,
        },
      ],
      claim: { now: T0 + 1, limit: 10, leaseUntil: T0 + 5000 },
    });
    expect(r.settled).toEqual([true, false]);
    expect(r.claimed.map((e) => e.id)).toEqual(['evt_v2']);
    expect(findWebhookEvent(h.db, 'evt_v1')).toMatchObject({ status: 'delivered', deliveredAt: T0 + 1 });
    expect(listWebhookAttempts(h.db, 'evt_v1')).toHaveLength(1);
  });

  it('resends any event: pending, due now, attempts back to zero, a new retry window', () => {
    event('evt_a', { status: 'failed', attempts: 17, lastError: 'HTTP 500' });
    expect(resendWebhookEvent(h.db, { id: 'evt_a', now: T0 + 9, retryUntil: T0 + 99 })?.status).toBe(
      'failed',
    );
    expect(findWebhookEvent(h.db, 'evt_a')).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0 + 9,
      retryUntil: T0 + 99,
    });
    expect(resendWebhookEvent(h.db, { id: 'evt_none', now: T0, retryUntil: T0 })).toBeNull();
  });

  it('lists newest first, filtered by internal order id, merchant and status', () => {
    event('evt_1', { createdAt: T0 });
    event('evt_2', { createdAt: T0 + 1, orderRef: 'ord_2', status: 'failed' });
    event('evt_3', { createdAt: T0 + 2, orderRef: 'ord_2', orderVersion: 2, merchantId: 'mch_b' });
    const ids = (f: Partial<Parameters<typeof listWebhookEvents>[1]>) =>
      listWebhookEvents(h.db, { limit: 10, ...f }).map((e) => e.id);
    expect(ids({})).toEqual(['evt_3', 'evt_2', 'evt_1']);
    expect(ids({ order: 'ord_2' })).toEqual(['evt_3', 'evt_2']);
    expect(ids({ merchantId: 'mch_b' })).toEqual(['evt_3']);
    expect(ids({ status: 'failed' })).toEqual(['evt_2']);
    expect(ids({ limit: 1 })).toEqual(['evt_3']);
  });
});
