import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Who may sign from a chain's hot wallet right now: one process at a time (the worker's payout and
 * sweep jobs, or a `kassa sweeps run`), so two processes never pick the same nonce or the same coin.
 * A lease runs out at `expiresAt` unless its holder renews it (a crashed holder frees it that way).
 */
export const walletLeases = pgTable('wallet_leases', {
  chain: text('chain').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
});
