import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The transactions of sweeps, stored signed before they are broadcast (a crash sends the same bytes
 * again): `topup` (hot wallet → deposit address, native coin for fees), `delegate` / `undelegate`
 * (TRON energy lent by the hot wallet and taken back), `transfer` (deposit address → destination,
 * signed by the deposit key; on Sui also by the hot wallet as gas owner). Each uses a spend slot
 * like a payout (EVM nonce of its sender, TRON expiry, Sui input versions). `feeBase` is the native
 * coin the transaction burnt, read once it is final (or failed on chain).
 */
export const sweepTxs = pgTable(
  'sweep_txs',
  {
    id: text('id').primaryKey(),
    sweepId: text('sweep_id').notNull(),
    chain: text('chain').notNull(),
    role: text('role', { enum: ['topup', 'delegate', 'transfer', 'undelegate'] }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    nonce: bigint('nonce', { mode: 'number' }),
    txHash: text('tx_hash').notNull(),
    rawTx: text('raw_tx').notNull(),
    /** Native coin sent (top-up), tokens moved (transfer), energy lent (delegate), in base units. */
    valueBase: text('value_base').notNull(),
    status: text('status', {
      enum: ['signed', 'broadcast', 'mined', 'final', 'failed', 'dropped'],
    }).notNull(),
    blockNum: bigint('block_num', { mode: 'number' }),
    /** Last moment the transaction can land (TRON expiration); null when it can land any time. */
    validUntil: bigint('valid_until', { mode: 'number' }),
    slot: text('slot'),
    /** Native coin the transaction burnt, once final or failed on chain. */
    feeBase: text('fee_base'),
    /** Who paid feeBase: the sender, or the hot wallet when it sponsored the gas (Sui). */
    feePayer: text('fee_payer'),
    error: text('error'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('sweep_txs_tx').on(t.chain, t.txHash),
    uniqueIndex('sweep_txs_nonce').on(t.chain, t.fromAddress, t.nonce).where(sql`nonce IS NOT NULL`),
    index('sweep_txs_sweep').on(t.sweepId),
    index('sweep_txs_status').on(t.chain, t.status),
  ],
);
