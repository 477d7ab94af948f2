import { eq } from 'drizzle-orm';
import type { WebhookEvent } from '../../repositories/webhook-events.ts';
import { type PgDb, type PgExecutor, pgTransaction } from '../client.ts';
import { webhookEvents } from '../schema/webhook-events.ts';

// One webhook event at a time, as the operator handles it, on PostgreSQL: the same functions as
// ../../repositories/webhook-resend.ts.

/** Stores an event that no order transition wrote (a `kassa webhooks test` event). One INSERT (a). */
export async function insertWebhookEvent(ex: PgExecutor, event: WebhookEvent): Promise<void> {
  await ex.insert(webhookEvents).values(event);
}

/**
 * Queues an event for delivery again, whatever its status: pending, due now, with a new retry
 * window that ends at `retryUntil` and its attempt count (and so its backoff) back at zero. The
 * attempt rows are kept. Returns the event as it was before, or null when no such event exists.
 * The event is read FOR UPDATE (b), so what comes back is what this write replaced.
 */
export async function resendWebhookEvent(
  db: PgDb,
  input: { id: string; now: number; retryUntil: number },
): Promise<WebhookEvent | null> {
  return pgTransaction(db, async (tx) => {
    const [before] = await tx
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, input.id))
      .for('update');
    if (!before) return null;
    await tx
      .update(webhookEvents)
      .set({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: input.now,
        retryUntil: input.retryUntil,
        deliveredAt: null,
      })
      .where(eq(webhookEvents.id, input.id));
    return before;
  });
}

/** One event by id, or null. */
export async function findWebhookEvent(ex: PgExecutor, id: string): Promise<WebhookEvent | null> {
  const [row] = await ex.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row ?? null;
}
