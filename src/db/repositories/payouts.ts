import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { sweepTxs } from '../schema/sweep-txs.ts';
import { rowToOrder } from './order-rows.ts';
import { applyOrderTransitions, type OrderTransition } from './orders.ts';
import { resolveHolds } from './payout-holds.ts';

export type AttemptStatus = 'signed' | 'broadcast' | 'mined' | 'final' | 'failed' | 'dropped' | 'replaced';

export interface PayoutAttempt {
  id: string;
  orderRef: string;
  chain: string;
  fromAddress: string;
  nonce: number | null;
  txHash: string;
  rawTx: string;
  status: AttemptStatus;
  blockNum: number | null;
  validUntil: number | null;
  error: string | null;
  /** The spend slot in words (nonce, TRON window, Sui inputs). */
  slot: string | null;
  /** The attempt this one re-prices (same nonce), or null for the first of its slot. */
  replacesAttempt: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An attempt about to be stored (the repository fills in times, block and error). */
export type NewAttempt = Omit<PayoutAttempt, 'createdAt' | 'updatedAt' | 'blockNum' | 'error'>;

export const LIVE: AttemptStatus[] = ['signed', 'broadcast', 'mined'];

// --- the sender's and tracker's view --------------------------------------------------------------

/** Attempts of a chain that may still land (signed, broadcast or mined, not final), oldest first. */
export function liveAttempts(db: Db, chain: string): PayoutAttempt[] {
  return db
    .select()
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.chain, chain), inArray(payoutAttempts.status, LIVE)))
    .orderBy(asc(payoutAttempts.createdAt))
    .all();
}

/** Every attempt of one payout, oldest first. */
export function attemptsOfOrder(db: Db, orderRef: string): PayoutAttempt[] {
  return db
    .select()
    .from(payoutAttempts)
    .where(eq(payoutAttempts.orderRef, orderRef))
    .orderBy(asc(payoutAttempts.createdAt), asc(sql`rowid`))
    .all();
}

const selectToSend = (db: Db) =>
  prepared(db, 'payouts.toSend', () =>
    db.$client.prepare<{ chain: string; limit: number }, { id: string; retried: number }>(
      `SELECT o.id,
         EXISTS (SELECT 1 FROM payout_holds h WHERE h.order_ref = o.id AND h.resolution = 'retried'
                 AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.order_ref = o.id
                                 AND a.created_at > h.resolved_at)) AS retried
       FROM orders o
       WHERE o.chain = @chain AND o.type = 'PAYOUT' AND o.status IN ('INIT', 'PENDING')
         AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.order_ref = o.id
                         AND a.status IN ('signed', 'broadcast', 'mined'))
         AND NOT EXISTS (SELECT 1 FROM payout_holds h WHERE h.order_ref = o.id AND h.resolved_at IS NULL)
       ORDER BY o.created_at LIMIT @limit`,
    ),
  );

/**
 * Payouts of a chain that need a transaction in a new spend slot: INIT ones, and PENDING ones whose
 * every attempt was proven unable to land (or given up by the operator). Payouts on hold (awaiting
 * approval, or stuck until the operator decides) are left alone. Oldest first; `retriedByOperator`
 * marks those the operator told to send again (`kassa payouts retry`) that have not been signed
 * since: the operator's decision stands even past the payout's expiry.
 */
export async function payoutsToSend(
  db: Db,
  chain: string,
  limit: number,
): Promise<(Order & { retriedByOperator: boolean })[]> {
  const picked = selectToSend(db).all({ chain, limit });
  if (picked.length === 0) return [];
  const retried = new Set(picked.filter((r) => r.retried === 1).map((r) => r.id));
  const rows = db
    .select()
    .from(orders)
    .where(
      inArray(
        orders.id,
        picked.map((r) => r.id),
      ),
    )
    .all()
    .map((r) => ({ ...rowToOrder(r), retriedByOperator: retried.has(r.id) }));
  return rows.sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * The highest nonce this database ever signed from an address on a chain (dropped ones included),
 * payouts and sweep transactions alike (a sweep's top-up takes the hot wallet's nonces too), or -1.
 */
export async function highestNonce(db: Db, chain: string, from: string): Promise<number> {
  const payoutMax = db
    .select({ n: sql<number | null>`max(${payoutAttempts.nonce})` })
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.chain, chain), eq(payoutAttempts.fromAddress, from)))
    .get();
  const sweepMax = db
    .select({ n: sql<number | null>`max(${sweepTxs.nonce})` })
    .from(sweepTxs)
    .where(and(eq(sweepTxs.chain, chain), eq(sweepTxs.fromAddress, from)))
    .get();
  return Math.max(payoutMax?.n ?? -1, sweepMax?.n ?? -1);
}

/**
 * Transactions Kassa recorded from a wallet for other payouts that may share a payout's spend slot:
 * on EVM those at the same nonce, elsewhere the most recent ones (the adapter checks which share
 * input objects). What `judgeSlot` needs to tell "used by us" from "used by someone else".
 */
export async function recordedSpends(
  db: Db,
  input: { chain: string; from: string; exceptOrder: string; nonce: number | null; limit?: number },
): Promise<PayoutAttempt[]> {
  return db
    .select()
    .from(payoutAttempts)
    .where(
      and(
        eq(payoutAttempts.chain, input.chain),
        eq(payoutAttempts.fromAddress, input.from),
        sql`${payoutAttempts.orderRef} <> ${input.exceptOrder}`,
        input.nonce === null ? undefined : eq(payoutAttempts.nonce, input.nonce),
      ),
    )
    .orderBy(desc(payoutAttempts.createdAt))
    .limit(input.limit ?? 200)
    .all();
}

/**
 * Commits a payout to a signed transaction before anything is sent: stores the attempt and moves
 * the order to PENDING (or keeps it there with the new transaction) in one transaction, so neither
 * the expiry job nor a crash can separate "signed" from "committed to send". A replacement must use
 * the slot of the attempt it replaces (same nonce, same payout); a new slot is refused while the
 * payout has a transaction that may still land (two senders at once cannot give it two). Throws
 * state_conflict if the order changed meanwhile (nothing is stored, nothing was sent).
 */
export async function commitSignedPayout(
  db: Db,
  input: { attempt: NewAttempt; transition: OrderTransition; now: number },
): Promise<void> {
  writeTransaction(db, () => {
    const { attempt } = input;
    if (attempt.replacesAttempt !== null) {
      const replaced = db
        .select()
        .from(payoutAttempts)
        .where(eq(payoutAttempts.id, attempt.replacesAttempt))
        .get();
      if (!replaced || replaced.orderRef !== attempt.orderRef || replaced.nonce !== attempt.nonce)
        throw new AppError('state_conflict', 'A replacement must reuse the slot of the payout it replaces.');
    }
    applyOrderTransitions(db, [input.transition], input.now);
    if (attempt.replacesAttempt === null) {
      const live = db
        .select({ txHash: payoutAttempts.txHash })
        .from(payoutAttempts)
        .where(and(eq(payoutAttempts.orderRef, attempt.orderRef), inArray(payoutAttempts.status, LIVE)))
        .get();
      if (live) throw secondSlotRefused(input.transition.order.orderId, live.txHash);
    }
    db.insert(payoutAttempts)
      .values({ ...attempt, blockNum: null, error: null, createdAt: input.now, updatedAt: input.now })
      .run();
  });
}

/** The refusal of a second slot for a payout whose transaction `txHash` may still land. */
export function secondSlotRefused(orderId: string, txHash: string): AppError {
  return new AppError(
    'state_conflict',
    `Payout ${orderId} already has a transaction that may land (${txHash}); a new slot needs it proven dead or given up.`,
  );
}

export interface AttemptUpdate {
  id: string;
  status: AttemptStatus;
  blockNum?: number | null;
  error?: string | null;
}

/**
 * Records what the chain says about attempts, moves their payouts and closes stuck holds whose
 * transaction showed up after all, atomically.
 */
export async function recordPayoutProgress(
  db: Db,
  input: { attempts: AttemptUpdate[]; transitions: OrderTransition[]; landed?: string[]; now: number },
): Promise<void> {
  writeTransaction(db, () => {
    for (const a of input.attempts) {
      db.update(payoutAttempts)
        .set({
          status: a.status,
          ...(a.blockNum !== undefined ? { blockNum: a.blockNum } : {}),
          ...(a.error !== undefined ? { error: a.error } : {}),
          updatedAt: input.now,
        })
        .where(eq(payoutAttempts.id, a.id))
        .run();
    }
    applyOrderTransitions(db, input.transitions, input.now);
    for (const orderRef of input.landed ?? [])
      resolveHolds(db, { orderRef, kind: 'stuck', resolution: 'landed', now: input.now });
  });
}
