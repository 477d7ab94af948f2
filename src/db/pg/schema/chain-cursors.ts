import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/** Per-chain scan checkpoint, written in the same transaction as what the scan found. */
export const chainCursors = pgTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  /** Last block (checkpoint for SUI) whose transfers are all stored. */
  height: bigint('height', { mode: 'number' }).notNull(),
  /** Hash of the block at `height`: when the chain no longer has it there, a reorganisation happened. */
  heightHash: text('height_hash').notNull().default(''),
  /** Unix seconds of the block at `height`: orders expire only once the scan has passed their expiry. */
  heightTime: bigint('height_time', { mode: 'number' }).notNull().default(0),
  /** Highest block known final at the last scan. */
  finalHeight: bigint('final_height', { mode: 'number' }).notNull(),
  /** Reorganisations the scanner found on this chain (a counter for /metrics). */
  reorgCount: bigint('reorg_count', { mode: 'number' }).notNull().default(0),
  /** Blocks replaced by the last reorganisation found, and when (epoch ms) it was found. */
  lastReorgDepth: bigint('last_reorg_depth', { mode: 'number' }),
  lastReorgAt: bigint('last_reorg_at', { mode: 'number' }),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});
