import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Each merchant's balance per chain and symbol: the running sum of its ledger entries, updated in
 * the same transaction as every entry, so checks read one row. Neither part ever goes below zero.
 */
export const merchantBalances = sqliteTable(
  'merchant_balances',
  {
    merchantId: text('merchant_id').notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    decimals: integer('decimals').notNull(),
    /** Base units the merchant may pay out. */
    available: text('available').notNull(),
    /** Base units held by payouts not final yet. */
    frozen: text('frozen').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.chain, t.symbol] })],
);
