import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Sweeps: one token moved from one deposit address to the hot wallet or the treasury (DESIGN.md
 * section 11). A sweep moves money without changing whose it is: it writes no ledger entry. Its
 * transactions are in sweep_txs, each stored before it is broadcast. States:
 * `planned` (nothing signed) → `gas_sent` (a top-up or an energy delegation from the hot wallet is
 * signed and stored) → `gas_final` (it is final, or none was needed) → `signed` (the transfer is
 * stored) → `broadcast` → `final`; `failed` when the transfer failed on chain or cannot be made
 * (the address is planned again later). At most one sweep per address and token is open at a time.
 */
export const sweeps = pgTable(
  'sweeps',
  {
    id: text('id').primaryKey(),
    chain: text('chain').notNull(),
    /** The deposit address swept and its derivation index (the key is derived again to sign). */
    address: text('address').notNull(),
    depositIndex: bigint('deposit_index', { mode: 'number' }).notNull(),
    /** Where the funds go: the chain's hot wallet or the configured treasury address. */
    destination: text('destination').notNull(),
    destinationKind: text('destination_kind', { enum: ['hot', 'treasury'] }).notNull(),
    symbol: text('symbol').notNull(),
    tokenContract: text('token_contract'),
    decimals: bigint('decimals', { mode: 'number' }).notNull(),
    /** How the fee is paid: `topup` (hot wallet sends native coin first), `delegate` (TRON energy lent), `sponsor` (Sui gas owner), `self` (a native sweep pays its own fee). */
    feeMode: text('fee_mode', { enum: ['topup', 'delegate', 'sponsor', 'self'] }).notNull(),
    /** Base units planned (the balance seen when planned); replaced by what the signed transfer moves. */
    amountBase: text('amount_base').notNull(),
    /** The native coin the whole sweep was estimated to cost when planned. */
    feeEstimateBase: text('fee_estimate_base').notNull(),
    status: text('status', {
      enum: ['planned', 'gas_sent', 'gas_final', 'signed', 'broadcast', 'final', 'failed'],
    }).notNull(),
    /** The last problem (a failure's reason, or why it waits). */
    error: text('error'),
    /**
     * A transaction of the sweep used a slot that something Kassa did not record also used (the
     * deposit key or the hot wallet's key used elsewhere): nothing new is signed for it; it is
     * judged again on later passes and logged at error level.
     */
    held: boolean('held').notNull().default(false),
    /** Passes that found it unable to move on (fee too high, node refused); it waits longer each time. */
    tries: bigint('tries', { mode: 'number' }).notNull().default(0),
    /** Not worked on before this time (epoch ms): a sweep that could not move on waits. */
    nextTryAt: bigint('next_try_at', { mode: 'number' }).notNull().default(0),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    finalAt: bigint('final_at', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('sweeps_open').on(t.chain, t.address, t.symbol).where(sql`status NOT IN ('final', 'failed')`),
    index('sweeps_status').on(t.chain, t.status),
    index('sweeps_address').on(t.chain, t.address),
    index('sweeps_created').on(t.createdAt),
  ],
);
