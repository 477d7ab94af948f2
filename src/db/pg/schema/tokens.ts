import { bigint, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** Tokens the operator added (`kassa token add`); they replace a default of the same chain and symbol. */
export const tokens = pgTable(
  'tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    network: text('network', { enum: ['mainnet', 'testnet'] }).notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    contract: text('contract'),
    decimals: bigint('decimals', { mode: 'number' }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('tokens_network_chain_symbol').on(t.network, t.chain, t.symbol)],
);
