import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Every incoming transfer to a deposit address the scanners saw, keyed by its natural on-chain key
 * (chain, txid, event key: EVM log index, TRON log position, SUI owner+coin type), so re-scans are
 * harmless. `orderRef` is null for unattributed deposits (late, or to an address with no open order).
 */
export const chainTransfers = pgTable(
  'chain_transfers',
  {
    id: text('id').primaryKey(),
    chain: text('chain').notNull(),
    txid: text('txid').notNull(),
    eventKey: text('event_key').notNull(),
    blockNum: bigint('block_num', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTimestamp: bigint('block_timestamp', { mode: 'number' }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    tokenContract: text('token_contract'),
    symbol: text('symbol').notNull(),
    amountBase: text('amount_base').notNull(),
    status: text('status', { enum: ['pending', 'final', 'orphaned', 'failed'] }).notNull(),
    orderRef: text('order_ref'),
    /** Why a transfer is unattributed: `late` (order already final), `no-order`, `wrong-token`. */
    unattributedReason: text('unattributed_reason'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('chain_transfers_key').on(t.chain, t.txid, t.eventKey),
    index('chain_transfers_order').on(t.orderRef),
    index('chain_transfers_chain_status').on(t.chain, t.status),
  ],
);
