import { describe, expect, it } from 'vitest';
import type { WebhookLogFilter } from '../store.ts';
import { create, store, T0 } from './context.ts';
import { attempt, webhookEvent } from './webhooks-claims.contract.ts';

type Cursor = { createdAt: number; id: string } | null;
const page = (filter: WebhookLogFilter, limit: number, after: Cursor = null) =>
  store.listWebhookEventsPage({ filter, after, limit });
const pageIds = async (filter: WebhookLogFilter, limit = 10, after: Cursor = null) =>
  (await page(filter, limit, after)).events.map((e) => e.id);

/** The Store contract on the webhook log and an operator's resend (../store/webhooks.ts). */
export function webhooksLogContract(): void {
  describe('log', () => {
    it('lists newest first, by the merchant’s orderId or the internal id, merchant and status', async () => {
      const { order } = await create('A-1');
      await webhookEvent('evt_1', { createdAt: T0 });
      await webhookEvent('evt_2', { createdAt: T0 + 1, orderRef: order.id, status: 'failed' });
      await webhookEvent('evt_3', {
        createdAt: T0 + 2,
        orderRef: order.id,
        orderVersion: 2,
        merchantId: 'mch_b',
      });
      const ids = async (f: { order?: string; merchantId?: string; status?: 'failed'; limit?: number }) =>
        (await store.listWebhookEvents({ limit: 10, ...f })).map((e) => e.id);
      expect(await ids({})).toEqual(['evt_3', 'evt_2', 'evt_1']);
      expect(await ids({ order: order.id })).toEqual(['evt_3', 'evt_2']);
      expect(await ids({ order: 'A-1' })).toEqual(['evt_3', 'evt_2']);
      expect(await ids({ merchantId: 'mch_b' })).toEqual(['evt_3']);
      expect(await ids({ status: 'failed' })).toEqual(['evt_2']);
      expect(await ids({ limit: 1 })).toEqual(['evt_3']);
      const [listed] = await store.listWebhookEvents({ order: 'A-1', limit: 1 });
      expect(listed).toMatchObject({ id: 'evt_3', orderId: 'A-1', data: '{}', merchantId: 'mch_b' });
      expect(
        (await store.listWebhookEvents({ limit: 10 })).find((e) => e.id === 'evt_1')?.orderId,
      ).toBeNull();
    });

    it('pages the delivery log newest first (time, then id), through each filter, to the end', async () => {
      const { order } = await create('A-1');
      await webhookEvent('evt_a', { createdAt: T0, orderRef: order.id, status: 'delivered' });
      await webhookEvent('evt_b', { createdAt: T0 + 1, status: 'failed', notifyType: 'ORDER_EXPIRED' });
      await webhookEvent('evt_c', { createdAt: T0 + 1, merchantId: 'mch_b' });
      await webhookEvent('evt_d', { createdAt: T0 + 2, status: 'failed', merchantId: 'mch_b' });
      await webhookEvent('evt_e', { createdAt: T0 + 3, notifyType: 'ORDER_EXPIRED' });
      const first = await page({}, 2);
      expect(first.events.map((e) => e.id)).toEqual(['evt_e', 'evt_d']);
      expect(first).toMatchObject({ next: { createdAt: T0 + 2, id: 'evt_d' }, partial: false });
      const second = await page({}, 2, first.next);
      expect(second.events.map((e) => e.id)).toEqual(['evt_c', 'evt_b']);
      const third = await page({}, 2, second.next);
      expect(third).toMatchObject({ next: null, partial: false });
      expect(third.events).toEqual([
        expect.objectContaining({
          id: 'evt_a',
          orderId: 'A-1',
          orderRef: order.id,
          status: 'delivered',
          createdAt: T0,
        }),
      ]);
      expect(third.events[0]).not.toHaveProperty('data');
      expect(await pageIds({ status: 'failed' })).toEqual(['evt_d', 'evt_b']);
      expect(await pageIds({ merchantId: 'mch_b' })).toEqual(['evt_d', 'evt_c']);
      expect(await pageIds({ notifyType: 'ORDER_EXPIRED' })).toEqual(['evt_e', 'evt_b']);
      expect(await pageIds({ merchantId: 'mch_b', status: 'failed' })).toEqual(['evt_d']);
      expect(await pageIds({ status: 'failed' }, 1, { createdAt: T0 + 2, id: 'evt_d' })).toEqual(['evt_b']);
      expect(await pageIds({ status: 'skipped' })).toEqual([]);
    });

    it('gives each event’s latest attempt, and counts what needs the operator’s eye', async () => {
      await webhookEvent('evt_a');
      await webhookEvent('evt_b', { orderRef: 'ord_2', status: 'failed' });
      await webhookEvent('evt_c', { orderRef: 'ord_3', status: 'failed' });
      await webhookEvent('evt_d', { orderRef: 'ord_4', status: 'delivered' });
      const retry = { status: 'pending' as const, nextAttemptAt: T0 + 1000 };
      await store.recordWebhookAttempt({ attempt: attempt('evt_a', 500, T0), outcome: retry, now: T0 });
      await store.recordWebhookAttempt({
        attempt: attempt('evt_a', null, T0 + 1000),
        outcome: retry,
        now: T0 + 1000,
      });
      await store.recordWebhookAttempt({
        attempt: attempt('evt_b', 404, T0 + 5),
        outcome: retry,
        now: T0 + 5,
      });
      const last = await store.lastAttemptsOf(['evt_a', 'evt_b', 'evt_c']);
      expect([...last.keys()].sort()).toEqual(['evt_a', 'evt_b']);
      expect(last.get('evt_a')).toEqual(attempt('evt_a', null, T0 + 1000));
      expect(last.get('evt_b')).toEqual(attempt('evt_b', 404, T0 + 5));
      expect((await store.lastAttemptsOf([])).size).toBe(0);
      expect(await store.webhookAttentionCounts()).toEqual({ pending: 1, failed: 2 });
    });

    it('resends any event: pending, due now, attempts back to zero, a new retry window; the attempts stay', async () => {
      await webhookEvent('evt_a', { status: 'failed', attempts: 17, lastError: 'HTTP 500' });
      await store.recordWebhookAttempt({
        attempt: attempt('evt_a', 500),
        outcome: { status: 'failed' },
        now: T0,
      });
      const before = await store.resendWebhookEvent({ id: 'evt_a', now: T0 + 9, retryUntil: T0 + 99 });
      expect(before).toMatchObject({ id: 'evt_a', status: 'failed', attempts: 17 });
      expect(await store.findWebhookEvent('evt_a')).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0 + 9,
        retryUntil: T0 + 99,
        deliveredAt: null,
      });
      expect(await store.listWebhookAttempts('evt_a')).toHaveLength(1);
      expect(await claimAt(T0 + 9)).toEqual(['evt_a']);
      expect(await store.resendWebhookEvent({ id: 'evt_none', now: T0, retryUntil: T0 })).toBeNull();
      expect(await store.findWebhookEvent('evt_none')).toBeNull();
    });
  });
}

const claimAt = async (now: number) =>
  (await store.claimDueWebhookEvents({ now, limit: 10, leaseUntil: now + 5000 })).map((e) => e.id);
