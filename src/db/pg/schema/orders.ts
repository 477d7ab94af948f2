import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Collections and payouts. Money columns are base units as TEXT (18-decimal tokens overflow INTEGER).
 * `version` grows with every transition, so webhook events of one order have an order.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id').notNull(),
    orderId: text('order_id').notNull(),
    uid: text('uid'),
    type: text('type', { enum: ['COLLECTION', 'PAYOUT'] }).notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    tokenContract: text('token_contract'),
    decimals: bigint('decimals', { mode: 'number' }).notNull(),
    amount: text('amount').notNull(),
    amountBase: text('amount_base').notNull(),
    fee: text('fee').notNull(),
    status: text('status', {
      enum: ['INIT', 'PENDING', 'PENDING_CONFIRMATION', 'SUCCESS', 'EXPIRED', 'FAILED'],
    }).notNull(),
    reason: text('reason'),
    address: text('address').notNull(),
    receiveAddress: text('receive_address'),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    receivedBase: text('received_base').notNull().default('0'),
    actualAmountBase: text('actual_amount_base'),
    txId: text('tx_id'),
    txFrom: text('tx_from'),
    txTo: text('tx_to'),
    txAmountBase: text('tx_amount_base'),
    txBlockNum: bigint('tx_block_num', { mode: 'number' }),
    txConfirmedNum: bigint('tx_confirmed_num', { mode: 'number' }),
    txStatus: text('tx_status', { enum: ['PENDING', 'SUCCESS', 'FAILED'] }),
    txTimestamp: bigint('tx_timestamp', { mode: 'number' }),
    /** Canonical request parameters, to tell a retry from a conflicting reuse of the orderId. */
    paramsKey: text('params_key').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('orders_merchant_order').on(t.merchantId, t.orderId),
    // Few indexes on purpose: every one is written on each createCollection. Open orders are found
    // by status, recent ones (late payments) by chain and expiry, orders by address through
    // deposit_addresses.
    index('orders_status_expires').on(t.status, t.expiresAt),
    index('orders_chain_type_expires').on(t.chain, t.type, t.expiresAt),
    // The dashboard: newest first and time ranges (appended at the end on insert, so cheap to
    // keep), and search by uid or payout destination (partial: collections of V3 merchants write
    // no entry).
    index('orders_created').on(t.createdAt),
    index('orders_uid').on(t.uid).where(sql`uid IS NOT NULL`),
    index('orders_receive_address').on(t.receiveAddress).where(sql`receive_address IS NOT NULL`),
    // A merchant's payouts of the last 24 h (daily limit); partial, so collections never write it.
    index('orders_merchant_payouts').on(t.merchantId, t.createdAt).where(sql`type = 'PAYOUT'`),
    // Payouts whose money has not settled, per chain (hot-wallet check, sender); partial as well.
    index('orders_open_payouts')
      .on(t.chain, t.status)
      .where(sql`type = 'PAYOUT' AND status IN ('INIT', 'PENDING', 'PENDING_CONFIRMATION')`),
  ],
);
