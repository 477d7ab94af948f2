import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Signed payout transactions, stored before they are broadcast: after a crash the same bytes are
 * re-broadcast, never a second transaction. EVM attempts carry their nonce.
 */
export const payoutAttempts = sqliteTable(
  'payout_attempts',
  {
    id: text('id').primaryKey(),
    orderRef: text('order_ref').notNull(),
    chain: text('chain').notNull(),
    fromAddress: text('from_address').notNull(),
    nonce: integer('nonce'),
    txHash: text('tx_hash').notNull(),
    rawTx: text('raw_tx').notNull(),
    status: text('status', {
      enum: ['signed', 'broadcast', 'mined', 'final', 'failed', 'dropped'],
    }).notNull(),
    blockNum: integer('block_num'),
    /** Last moment the signed transaction can still land (TRON expiration, EVM none). */
    validUntil: integer('valid_until'),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('payout_attempts_tx').on(t.chain, t.txHash),
    uniqueIndex('payout_attempts_nonce').on(t.chain, t.fromAddress, t.nonce),
    index('payout_attempts_order').on(t.orderRef),
    index('payout_attempts_status').on(t.chain, t.status),
  ],
);
