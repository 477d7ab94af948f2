import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The outbox: one row per order transition, written in the transition's transaction. */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id').notNull(),
    orderRef: text('order_ref'),
    orderVersion: integer('order_version').notNull(),
    notifyType: text('notify_type').notNull(),
    /** JSON text of the NotifyOrder snapshot at the transition. */
    data: text('data').notNull(),
    /** `skipped`: never sent, on purpose (an event type XPay never sends, for a merchant in XPay compatibility mode). */
    status: text('status', { enum: ['pending', 'delivered', 'failed', 'skipped'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; while an attempt is in flight, the end of its lease. */
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** Retrying stops after this time; null = createdAt + webhooks.retryForSeconds. A resend sets it. */
    retryUntil: integer('retry_until'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
  },
  (t) => [
    index('webhook_events_due').on(t.status, t.nextAttemptAt),
    index('webhook_events_order').on(t.orderRef, t.orderVersion),
    index('webhook_events_merchant').on(t.merchantId, t.createdAt),
    // The dashboard's delivery log, newest first.
    index('webhook_events_created').on(t.createdAt),
  ],
);
