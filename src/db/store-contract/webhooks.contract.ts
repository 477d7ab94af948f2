import { describe, expect, it } from 'vitest';
import { create, store, T0 } from './context.ts';
import { webhooksClaimsContract } from './webhooks-claims.contract.ts';
import { webhooksLogContract } from './webhooks-log.contract.ts';
import { webhooksRacesContract } from './webhooks-races.contract.ts';

/** The Store contract on webhook events: skipped, claimed, leased, settled, resent and listed (../store/webhooks.ts); it runs inside storeContract's describe. */
export function webhooksContract(): void {
  describe('webhooks', () => {
    it('skips a webhook event without an attempt, keeping why', async () => {
      const { order } = await create('A-1');
      await store.applyOrderTransitions([{ order, patch: { status: 'PENDING', receivedBase: 1n } }], T0);
      const [event] = await store.claimDueWebhookEvents({ now: T0 + 10, limit: 10, leaseUntil: T0 + 5000 });
      const attempt = { eventId: event!.id, attemptedAt: T0 + 20, statusCode: null, latencyMs: 0 };
      const skipped = await store.recordWebhookAttempt({
        attempt: { ...attempt, error: 'not sent: XPay never sends ORDER_PENDING' },
        outcome: { status: 'skipped' },
        now: T0 + 20,
      });
      expect(skipped).toBe(true);
      const stored = await store.findWebhookEvent(event!.id);
      expect(stored).toMatchObject({
        status: 'skipped',
        lastError: 'not sent: XPay never sends ORDER_PENDING',
      });
      expect(await store.listWebhookAttempts(event!.id)).toEqual([]);
    });

    it('leases a claimed webhook event, and settles it with its attempt', async () => {
      const { order } = await create('A-1');
      await store.applyOrderTransitions([{ order, patch: { status: 'EXPIRED' } }], T0);
      const claim = { now: T0 + 10, limit: 10, leaseUntil: T0 + 5000 };
      const [event] = await store.claimDueWebhookEvents(claim);
      expect(event?.orderRef).toBe(order.id);
      expect(await store.claimDueWebhookEvents(claim)).toEqual([]);
      const settled = await store.recordWebhookAttempt({
        attempt: { eventId: event!.id, attemptedAt: T0 + 20, statusCode: 200, latencyMs: 5, error: null },
        outcome: { status: 'delivered' },
        now: T0 + 20,
      });
      expect(settled).toBe(true);
      expect((await store.findWebhookEvent(event!.id))?.status).toBe('delivered');
      expect((await store.listWebhookAttempts(event!.id)).map((a) => a.statusCode)).toEqual([200]);
    });
    webhooksClaimsContract();
    webhooksRacesContract();
    webhooksLogContract();
  });
}
