import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Each merchant's balance per chain and symbol: the running sum of its ledger entries, updated in
 * the same transaction as every entry, so checks read one row. Neither part ever goes below zero.
 */
export const merchantBalances = pgTable(
  'merchant_balances',
  {
    merchantId: text('merchant_id').notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    decimals: bigint('decimals', { mode: 'number' }).notNull(),
    /** Base units the merchant may pay out. */
    available: text('available').notNull(),
    /** Base units held by payouts not final yet. */
    frozen: text('frozen').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.chain, t.symbol] })],
);
