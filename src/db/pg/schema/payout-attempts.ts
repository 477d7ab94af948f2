import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Signed payout transactions, stored before they are broadcast: after a crash the same bytes are
 * re-broadcast, never a second transaction. Every attempt of a payout uses its one spend slot (EVM
 * nonce, TRON ref block and expiration, Sui input object versions); a replacement (re-priced, same
 * nonce) names the attempt it replaces. A nonce opens at most one slot per wallet.
 */
export const payoutAttempts = pgTable(
  'payout_attempts',
  {
    id: text('id').primaryKey(),
    orderRef: text('order_ref').notNull(),
    chain: text('chain').notNull(),
    fromAddress: text('from_address').notNull(),
    nonce: bigint('nonce', { mode: 'number' }),
    txHash: text('tx_hash').notNull(),
    rawTx: text('raw_tx').notNull(),
    status: text('status', {
      enum: ['signed', 'broadcast', 'mined', 'final', 'failed', 'dropped', 'replaced'],
    }).notNull(),
    blockNum: bigint('block_num', { mode: 'number' }),
    /** Last moment the signed transaction can still land (TRON expiration, EVM none). */
    validUntil: bigint('valid_until', { mode: 'number' }),
    error: text('error'),
    /** The spend slot in words: `nonce 14`, `ref 0x…/expires 1777447527000`, `0xcoin@12,…`. */
    slot: text('slot'),
    /** The attempt this one re-prices (same nonce, higher fee); null for the first of a slot. */
    replacesAttempt: text('replaces_attempt'),
    /** EVM: max fee per gas (or gas price) and priority fee it was signed with, in wei. */
    maxFeePerGas: text('max_fee_per_gas'),
    maxPriorityFeePerGas: text('max_priority_fee_per_gas'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('payout_attempts_tx').on(t.chain, t.txHash),
    uniqueIndex('payout_attempts_slot_nonce')
      .on(t.chain, t.fromAddress, t.nonce)
      .where(sql`replaces_attempt IS NULL`),
    index('payout_attempts_order').on(t.orderRef),
    index('payout_attempts_status').on(t.chain, t.status),
    index('payout_attempts_recent').on(t.chain, t.updatedAt),
  ],
);
