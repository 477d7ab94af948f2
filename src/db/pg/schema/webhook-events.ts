import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/** The outbox: one row per order transition, written in the transition's transaction. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id').notNull(),
    orderRef: text('order_ref'),
    orderVersion: bigint('order_version', { mode: 'number' }).notNull(),
    notifyType: text('notify_type').notNull(),
    /** JSON text of the NotifyOrder snapshot at the transition. */
    data: text('data').notNull(),
    /** `skipped`: never sent, on purpose (an event type XPay never sends, for a merchant in XPay compatibility mode). */
    status: text('status', { enum: ['pending', 'delivered', 'failed', 'skipped'] }).notNull(),
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(0),
    /** When the next attempt is due; while an attempt is in flight, the end of its lease. */
    nextAttemptAt: bigint('next_attempt_at', { mode: 'number' }).notNull(),
    /** Retrying stops after this time; null = createdAt + webhooks.retryForSeconds. A resend sets it. */
    retryUntil: bigint('retry_until', { mode: 'number' }),
    lastError: text('last_error'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    deliveredAt: bigint('delivered_at', { mode: 'number' }),
  },
  (t) => [
    index('webhook_events_due').on(t.status, t.nextAttemptAt),
    index('webhook_events_order').on(t.orderRef, t.orderVersion),
    index('webhook_events_merchant').on(t.merchantId, t.createdAt),
    // The dashboard's delivery log, newest first.
    index('webhook_events_created').on(t.createdAt),
  ],
);
