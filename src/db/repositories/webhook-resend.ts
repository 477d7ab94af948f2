import { eq } from 'drizzle-orm';
import { type Db, writeTransaction } from '../client.ts';
import { webhookEvents } from '../schema/webhook-events.ts';
import type { WebhookEvent } from './webhook-events.ts';

// One webhook event at a time, as the operator handles it: found by id, queued again (`kassa
// webhooks resend`, the dashboard's Resend), or stored without a transition (`kassa webhooks test`).
// The worker's claims and settlements are in webhook-events.ts, the lists in webhook-log.ts.

/** Stores an event that no order transition wrote (a `kassa webhooks test` event). */
export function insertWebhookEvent(db: Db, event: WebhookEvent): void {
  db.insert(webhookEvents).values(event).run();
}

/**
 * Queues an event for delivery again, whatever its status: pending, due now, with a new retry
 * window that ends at `retryUntil` and its attempt count (and so its backoff) back at zero. The
 * attempt rows are kept. Returns the event as it was before, or null when no such event exists.
 */
export function resendWebhookEvent(
  db: Db,
  input: { id: string; now: number; retryUntil: number },
): WebhookEvent | null {
  return writeTransaction(db, () => {
    const before = findWebhookEvent(db, input.id);
    if (!before) return null;
    db.update(webhookEvents)
      .set({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: input.now,
        retryUntil: input.retryUntil,
        deliveredAt: null,
      })
      .where(eq(webhookEvents.id, input.id))
      .run();
    return before;
  });
}

/** One event by id, or null. */
export function findWebhookEvent(db: Db, id: string): WebhookEvent | null {
  return db.select().from(webhookEvents).where(eq(webhookEvents.id, id)).get() ?? null;
}
