import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * What the operator paid to move merchants' money, per chain and kind: `gas_topup` (EVM native coin
 * sent to a deposit address for its transfer's gas), `energy` (TRON: TRX sent to burn for energy and
 * bandwidth, or the fees of lending energy), `sweep_fee` (fees the hot wallet burnt for its own sweep
 * transactions, Sui gas it sponsored, and fees a native sweep paid out of the swept coin). Written
 * with the sweep transaction's finality; never a ledger entry (merchant balances do not change).
 */
export const operatorCosts = pgTable(
  'operator_costs',
  {
    id: text('id').primaryKey(),
    chain: text('chain').notNull(),
    kind: text('kind', { enum: ['gas_topup', 'energy', 'sweep_fee'] }).notNull(),
    /** The chain's native coin symbol and its decimals. */
    symbol: text('symbol').notNull(),
    decimals: bigint('decimals', { mode: 'number' }).notNull(),
    amountBase: text('amount_base').notNull(),
    sweepId: text('sweep_id').notNull(),
    txHash: text('tx_hash').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('operator_costs_tx').on(t.chain, t.txHash, t.kind),
    index('operator_costs_chain').on(t.chain, t.kind),
  ],
);
