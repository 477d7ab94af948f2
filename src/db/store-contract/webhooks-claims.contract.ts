import { describe, expect, it } from 'vitest';
import type { ClaimRequest, WebhookEvent } from '../store.ts';
import { store, T0 } from './context.ts';

/** Stores a webhook event fixture (pending, due at T0, of order ord_1 version 1); `over` replaces fields. */
export async function webhookEvent(id: string, over: Partial<WebhookEvent> = {}): Promise<WebhookEvent> {
  const event: WebhookEvent = {
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
  await store.insertWebhookEvent(event);
  return event;
}

/** The ids claimed by one claim at T0 (limit 10, lease 5 s); `over` replaces fields of the request. */
export const claimIds = async (over: Partial<ClaimRequest> = {}) =>
  (await store.claimDueWebhookEvents({ now: T0, limit: 10, leaseUntil: T0 + 5000, ...over })).map(
    (e) => e.id,
  );

/** An attempt at `eventId` at T0 that the receiver answered with `statusCode` (null: no answer). */
export const attempt = (eventId: string, statusCode: number | null, attemptedAt = T0) => ({
  eventId,
  attemptedAt,
  statusCode,
  latencyMs: 3,
  error: statusCode === 200 ? null : `HTTP ${statusCode}`,
});

/** The Store contract on claiming due webhook events and settling their attempts (../store/webhooks.ts). */
export function webhooksClaimsContract(): void {
  describe('claims', () => {
    it('claims only due events, oldest first, and only the earliest pending event of each order', async () => {
      await webhookEvent('evt_o1v2', { orderVersion: 2 });
      await webhookEvent('evt_o1v1', { orderVersion: 1, createdAt: T0 - 10 });
      await webhookEvent('evt_o2v1', { orderRef: 'ord_2', nextAttemptAt: T0 - 100 });
      await webhookEvent('evt_later', { orderRef: 'ord_3', nextAttemptAt: T0 + 1 });
      await webhookEvent('evt_done', { orderRef: 'ord_4', status: 'delivered' });
      await webhookEvent('evt_test', { orderRef: null, orderVersion: 0 });
      expect(await claimIds()).toEqual(['evt_o2v1', 'evt_o1v1', 'evt_test']);
    });

    it('leases what it claims: nothing is claimed twice until the lease runs out', async () => {
      await webhookEvent('evt_a');
      expect(await claimIds()).toEqual(['evt_a']);
      expect((await store.findWebhookEvent('evt_a'))?.nextAttemptAt).toBe(T0 + 5000);
      expect(await claimIds({ now: T0 + 4999 })).toEqual([]);
      expect(await claimIds({ now: T0 + 5000 })).toEqual(['evt_a']);
      expect(await claimIds({ now: T0 + 99_999, limit: 0 })).toEqual([]);
    });

    it('a later event of an order waits while the earlier one is pending; failed frees it, delivered too', async () => {
      await webhookEvent('evt_v1', { orderVersion: 1, nextAttemptAt: T0 + 60_000 });
      await webhookEvent('evt_v2', { orderVersion: 2 });
      await webhookEvent('evt_v3', { orderVersion: 3 });
      expect(await claimIds()).toEqual([]);
      await store.recordWebhookAttempt({
        attempt: attempt('evt_v1', 500),
        outcome: { status: 'failed' },
        now: T0,
      });
      expect(await claimIds()).toEqual(['evt_v2']);
      await store.recordWebhookAttempt({
        attempt: attempt('evt_v2', 200),
        outcome: { status: 'delivered' },
        now: T0,
      });
      expect(await claimIds()).toEqual(['evt_v3']);
    });

    it('moves the later events of an order behind their head when the head is rescheduled', async () => {
      await webhookEvent('evt_v1', { orderVersion: 1 });
      await webhookEvent('evt_v2', { orderVersion: 2 });
      await webhookEvent('evt_other', { orderRef: 'ord_2', createdAt: T0 + 1 }); // created after: claimed after on a tie
      expect(await claimIds()).toEqual(['evt_v1', 'evt_other']);
      await store.recordWebhookAttempt({
        attempt: attempt('evt_v1', 500),
        outcome: { status: 'pending', nextAttemptAt: T0 + 60_000 },
        now: T0,
      });
      expect((await store.findWebhookEvent('evt_v2'))?.nextAttemptAt).toBe(T0 + 60_000);
      expect((await store.findWebhookEvent('evt_other'))?.nextAttemptAt).toBe(T0 + 5000);
      expect(await claimIds({ now: T0 + 60_000 })).toEqual(['evt_other', 'evt_v1']);
    });

    it('skips excluded merchants and what `accept` refuses, leasing only what it returns', async () => {
      await webhookEvent('evt_a1', { orderRef: 'ord_a1' });
      await webhookEvent('evt_b1', { orderRef: 'ord_b1', merchantId: 'mch_b' });
      await webhookEvent('evt_c1', { orderRef: 'ord_c1', merchantId: 'mch_c' });
      const asked: string[] = [];
      const accept = (e: WebhookEvent) => {
        asked.push(e.id);
        return e.merchantId !== 'mch_c';
      };
      expect(await claimIds({ excludeMerchantIds: ['mch_a'], accept })).toEqual(['evt_b1']);
      expect(asked.sort()).toEqual(['evt_b1', 'evt_c1']); // asked once each
      expect((await store.findWebhookEvent('evt_c1'))?.nextAttemptAt).toBe(T0);
      expect(await claimIds({ limit: 1 })).toEqual(['evt_a1']);
    });

    it('records an attempt with its outcome together, and leaves an event that is no longer pending alone', async () => {
      await webhookEvent('evt_a');
      const pending = { status: 'pending' as const, nextAttemptAt: T0 + 60_000 };
      expect(
        await store.recordWebhookAttempt({ attempt: attempt('evt_a', 503), outcome: pending, now: T0 }),
      ).toBe(true);
      expect(await store.findWebhookEvent('evt_a')).toMatchObject({
        status: 'pending',
        attempts: 1,
        nextAttemptAt: T0 + 60_000,
        lastError: 'HTTP 503',
      });
      const ok = attempt('evt_a', 200, T0 + 60_000);
      expect(
        await store.recordWebhookAttempt({ attempt: ok, outcome: { status: 'delivered' }, now: T0 + 60_010 }),
      ).toBe(true);
      expect(await store.findWebhookEvent('evt_a')).toMatchObject({
        status: 'delivered',
        attempts: 2,
        deliveredAt: T0 + 60_010,
        lastError: null,
      });
      // a late duplicate attempt is kept in the history but does not change the delivered event
      const late = attempt('evt_a', 503, T0 + 61_000);
      expect(
        await store.recordWebhookAttempt({ attempt: late, outcome: { status: 'failed' }, now: T0 + 61_000 }),
      ).toBe(false);
      expect(await store.findWebhookEvent('evt_a')).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(await store.listWebhookAttempts('evt_a')).toEqual([attempt('evt_a', 503), ok, late]);
    });

    it('records finished attempts and claims what they freed in one call: the order’s next event', async () => {
      await webhookEvent('evt_v1', { orderVersion: 1 });
      await webhookEvent('evt_v2', { orderVersion: 2 });
      expect(await claimIds()).toEqual(['evt_v1']);
      const delivered = { status: 'delivered' as const };
      const r = await store.settleAndClaimWebhookEvents({
        settle: [
          { attempt: attempt('evt_v1', 200), outcome: delivered, now: T0 + 1 },
          { attempt: attempt('evt_gone', 200), outcome: delivered, now: T0 + 1 },
        ],
        claim: { now: T0 + 1, limit: 10, leaseUntil: T0 + 5000 },
      });
      expect(r.settled).toEqual([true, false]);
      expect(r.claimed.map((e) => [e.id, e.nextAttemptAt])).toEqual([['evt_v2', T0 + 5000]]);
      expect(await store.findWebhookEvent('evt_v1')).toMatchObject({
        status: 'delivered',
        deliveredAt: T0 + 1,
      });
      expect(await store.listWebhookAttempts('evt_v1')).toHaveLength(1);
      expect(
        await store.settleAndClaimWebhookEvents({
          settle: [],
          claim: { now: T0 + 2, limit: 10, leaseUntil: T0 + 5000 },
        }),
      ).toEqual({
        settled: [],
        claimed: [],
      });
    });
  });
}
