import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Tokens the operator added (`kassa token add`); they replace a default of the same chain and symbol. */
export const tokens = sqliteTable(
  'tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    network: text('network', { enum: ['mainnet', 'testnet'] }).notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    contract: text('contract'),
    decimals: integer('decimals').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('tokens_network_chain_symbol').on(t.network, t.chain, t.symbol)],
);
