import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Every delivery attempt of a webhook event: when, what the receiver answered, how long it took. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: text('event_id').notNull(),
    attemptedAt: integer('attempted_at').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_event').on(t.eventId)],
);
