import { bigint, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Runs of `kassa reconcile` (and of the worker's scheduled one): when, what was compared, how many
 * differences nothing explains, and the whole report as JSON (for /metrics and the dashboard).
 */
export const reconciliations = pgTable(
  'reconciliations',
  {
    id: text('id').primaryKey(),
    startedAt: bigint('started_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }).notNull(),
    /** Chains compared, comma-separated. */
    chains: text('chains').notNull(),
    addresses: bigint('addresses', { mode: 'number' }).notNull(),
    unexplained: bigint('unexplained', { mode: 'number' }).notNull(),
    report: text('report').notNull(),
  },
  (t) => [index('reconciliations_finished').on(t.finishedAt)],
);

/**
 * A hot wallet's float: what it holds beyond what Kassa's records put into it (the operator funds
 * hot wallets from outside). Reconciliation keeps the highest float seen; a float that shrinks means
 * funds left the wallet without a record, and is reported until `kassa reconcile --accept` takes the
 * new value.
 */
export const walletFloats = pgTable(
  'wallet_floats',
  {
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    symbol: text('symbol').notNull(),
    floatBase: text('float_base').notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.address, t.symbol] })],
);

/** Fees of hot-wallet transactions Kassa did not record a fee for (payouts), read once from the chain. */
export const txFees = pgTable(
  'tx_fees',
  {
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    feeBase: text('fee_base').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.txHash] })],
);
