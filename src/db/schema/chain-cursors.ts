import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Per-chain scan checkpoint, written in the same transaction as what the scan found. */
export const chainCursors = sqliteTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  /** Last block (checkpoint for SUI) whose transfers are all stored. */
  height: integer('height').notNull(),
  /** Hash of the block at `height`: when the chain no longer has it there, a reorganisation happened. */
  heightHash: text('height_hash').notNull().default(''),
  /** Unix seconds of the block at `height`: orders expire only once the scan has passed their expiry. */
  heightTime: integer('height_time').notNull().default(0),
  /** Highest block known final at the last scan. */
  finalHeight: integer('final_height').notNull(),
  /** Reorganisations the scanner found on this chain (a counter for /metrics). */
  reorgCount: integer('reorg_count').notNull().default(0),
  /** Blocks replaced by the last reorganisation found, and when (epoch ms) it was found. */
  lastReorgDepth: integer('last_reorg_depth'),
  lastReorgAt: integer('last_reorg_at'),
  updatedAt: integer('updated_at').notNull(),
});
