import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Who may sign from a chain's hot wallet right now: one process at a time (the worker's payout and
 * sweep jobs, or a `kassa sweeps run`), so two processes never pick the same nonce or the same coin.
 * A lease runs out at `expiresAt` unless its holder renews it (a crashed holder frees it that way).
 */
export const walletLeases = sqliteTable('wallet_leases', {
  chain: text('chain').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
});
