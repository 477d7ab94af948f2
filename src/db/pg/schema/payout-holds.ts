import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Why a payout is not being signed, until the operator decides: `approval` (above the approval
 * threshold: `kassa payouts approve|reject`) or `stuck` (its transaction's spend slot was used by
 * something Kassa cannot identify: `kassa payouts retry|fail`). Rows are kept once resolved, with
 * how and when, as the record of the operator's decisions.
 */
export const payoutHolds = pgTable(
  'payout_holds',
  {
    id: text('id').primaryKey(),
    orderRef: text('order_ref').notNull(),
    kind: text('kind', { enum: ['approval', 'stuck'] }).notNull(),
    reason: text('reason').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    resolvedAt: bigint('resolved_at', { mode: 'number' }),
    /** approved, rejected, retried, failed, landed (the transaction showed up after all). */
    resolution: text('resolution'),
    /** The operator's words (reject/fail reason). */
    note: text('note'),
  },
  (t) => [
    uniqueIndex('payout_holds_open').on(t.orderRef, t.kind).where(sql`resolved_at IS NULL`),
    index('payout_holds_kind').on(t.kind, t.resolvedAt),
  ],
);
