import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Which process runs the worker's jobs right now: one row per lease name (`worker`), held by one
 * process (`holder`: host, pid and a random part) until `expiresAt`. The holder renews it every few
 * seconds; a standby `kassa worker` takes it once it has run out (its holder died or lost the
 * database), so exactly one process scans, pays out and delivers webhooks at a time.
 * `acquiredAt` is when the current holder took it (kept across renewals).
 */
export const workerLeases = pgTable('worker_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  acquiredAt: bigint('acquired_at', { mode: 'number' }).notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
});
