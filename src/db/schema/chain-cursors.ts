import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Per-chain scan checkpoint, written in the same transaction as what the scan found. */
export const chainCursors = sqliteTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  /** Last block (checkpoint for SUI) whose transfers are all stored. */
  height: integer('height').notNull(),
  /** Highest block known final at the last scan. */
  finalHeight: integer('final_height').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
