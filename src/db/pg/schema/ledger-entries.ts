import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The merchants' ledger: append-only movements of each merchant's balance per chain and symbol,
 * written in the same transaction as the state change that causes them. Amounts are signed base
 * units as TEXT. A balance is the sum of its entries (merchant_balances keeps the running sum).
 * An order moves money at most once per kind (unique order_ref + kind), so no path can credit a
 * collection or debit a payout twice.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id').notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    decimals: bigint('decimals', { mode: 'number' }).notNull(),
    kind: text('kind', {
      enum: ['collection_credit', 'payout_freeze', 'payout_debit', 'payout_release', 'adjustment'],
    }).notNull(),
    /** Change of the available balance (signed base units). */
    availableDelta: text('available_delta').notNull(),
    /** Change of the frozen balance (signed base units). */
    frozenDelta: text('frozen_delta').notNull(),
    /** The order that caused it; null for operator adjustments. */
    orderRef: text('order_ref'),
    /** Why: the operator's reason for an adjustment, the order's reason for a release. */
    reason: text('reason'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('ledger_entries_merchant').on(t.merchantId, t.createdAt),
    uniqueIndex('ledger_entries_order_kind').on(t.orderRef, t.kind),
  ],
);
