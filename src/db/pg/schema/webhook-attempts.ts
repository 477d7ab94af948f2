import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/** Every delivery attempt of a webhook event: when, what the receiver answered, how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    eventId: text('event_id').notNull(),
    attemptedAt: bigint('attempted_at', { mode: 'number' }).notNull(),
    statusCode: bigint('status_code', { mode: 'number' }),
    latencyMs: bigint('latency_ms', { mode: 'number' }).notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_event').on(t.eventId)],
);
