import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import type { Order } from '../../../domain/order.ts';
import type { OrderTransition } from '../../repositories/orders.ts';
import {
  type AttemptUpdate,
  LIVE,
  type NewAttempt,
  type PayoutAttempt,
  secondSlotRefused,
} from '../../repositories/payouts.ts';
import { type PgDb, type PgExecutor, type PgTx, pgTransaction } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { sweepTxs } from '../schema/sweep-txs.ts';
import { rowToOrder } from './order-rows.ts';
import { applyOrderTransitions } from './orders.ts';
import { resolveHolds } from './payout-holds.ts';

export {
  type AttemptStatus,
  type AttemptUpdate,
  LIVE,
  type NewAttempt,
  type PayoutAttempt,
} from '../../repositories/payouts.ts';

// --- the sender's and tracker's view --------------------------------------------------------------

/** Attempts of a chain that may still land (signed, broadcast or mined, not final), oldest first. */
export async function liveAttempts(ex: PgExecutor, chain: string): Promise<PayoutAttempt[]> {
  return ex
    .select()
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.chain, chain), inArray(payoutAttempts.status, LIVE)))
    .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.id));
}

/** Every attempt of one payout, oldest first. */
export async function attemptsOfOrder(ex: PgExecutor, orderRef: string): Promise<PayoutAttempt[]> {
  return ex
    .select()
    .from(payoutAttempts)
    .where(eq(payoutAttempts.orderRef, orderRef))
    .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.id));
}

/**
 * Payouts of a chain that need a transaction in a new spend slot: INIT ones, and PENDING ones whose
 * every attempt was proven unable to land (or given up by the operator). Payouts on hold (awaiting
 * approval, or stuck until the operator decides) are left alone. Oldest first; `retriedByOperator`
 * marks those the operator told to send again (`kassa payouts retry`) that have not been signed
 * since: the operator's decision stands even past the payout's expiry.
 */
export async function payoutsToSend(
  ex: PgExecutor,
  chain: string,
  limit: number,
): Promise<(Order & { retriedByOperator: boolean })[]> {
  const picked = await ex.execute<{ id: string; retried: boolean }>(sql`
    SELECT o.id,
      EXISTS (SELECT 1 FROM payout_holds h WHERE h.order_ref = o.id AND h.resolution = 'retried'
              AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.order_ref = o.id
                              AND a.created_at > h.resolved_at)) AS retried
    FROM orders o
    WHERE o.chain = ${chain} AND o.type = 'PAYOUT' AND o.status IN ('INIT', 'PENDING')
      AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.order_ref = o.id
                      AND a.status IN ('signed', 'broadcast', 'mined'))
      AND NOT EXISTS (SELECT 1 FROM payout_holds h WHERE h.order_ref = o.id AND h.resolved_at IS NULL)
    ORDER BY o.created_at, o.id LIMIT ${limit}`);
  if (picked.rows.length === 0) return [];
  const retried = new Set(picked.rows.filter((r) => r.retried).map((r) => r.id));
  const rows = await ex
    .select()
    .from(orders)
    .where(
      inArray(
        orders.id,
        picked.rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id));
  return rows.map((r) => ({ ...rowToOrder(r), retriedByOperator: retried.has(r.id) }));
}

/**
 * The highest nonce this database ever signed from an address on a chain (dropped ones included),
 * payouts and sweep transactions alike (a sweep's top-up takes the hot wallet's nonces too), or -1.
 */
export async function highestNonce(ex: PgExecutor, chain: string, from: string): Promise<number> {
  const [payoutMax] = await ex
    .select({ n: sql<string | null>`max(${payoutAttempts.nonce})` })
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.chain, chain), eq(payoutAttempts.fromAddress, from)));
  const [sweepMax] = await ex
    .select({ n: sql<string | null>`max(${sweepTxs.nonce})` })
    .from(sweepTxs)
    .where(and(eq(sweepTxs.chain, chain), eq(sweepTxs.fromAddress, from)));
  // max() comes back as text (drizzle reads int8 outside a column as the driver gives it)
  const n = (row: { n: unknown } | undefined) => (row?.n == null ? -1 : Number(row.n));
  return Math.max(n(payoutMax), n(sweepMax));
}

/**
 * Transactions Kassa recorded from a wallet for other payouts that may share a payout's spend slot:
 * on EVM those at the same nonce, elsewhere the most recent ones (the adapter checks which share
 * input objects). What `judgeSlot` needs to tell "used by us" from "used by someone else".
 */
export async function recordedSpends(
  ex: PgExecutor,
  input: { chain: string; from: string; exceptOrder: string; nonce: number | null; limit?: number },
): Promise<PayoutAttempt[]> {
  return ex
    .select()
    .from(payoutAttempts)
    .where(
      and(
        eq(payoutAttempts.chain, input.chain),
        eq(payoutAttempts.fromAddress, input.from),
        ne(payoutAttempts.orderRef, input.exceptOrder),
        input.nonce === null ? undefined : eq(payoutAttempts.nonce, input.nonce),
      ),
    )
    .orderBy(desc(payoutAttempts.createdAt), desc(payoutAttempts.id))
    .limit(input.limit ?? 200);
}

// --- writes -------------------------------------------------------------------------------------

/**
 * Commits a payout to a signed transaction before anything is sent: stores the attempt and moves
 * the order to PENDING (or keeps it there with the new transaction) in one transaction, so neither
 * the expiry job nor a crash can separate "signed" from "committed to send". A replacement must use
 * the slot of the attempt it replaces (same nonce, same payout); a new slot is refused while the
 * payout has a transaction that may still land. Throws state_conflict if the order changed
 * meanwhile (nothing is stored, nothing was sent).
 */
// Kept correct by (b): the transition's guarded UPDATE locks the payout's row before its attempts are
// read (READ COMMITTED: the read after it sees what a commit we waited for wrote), so of two commits
// for one payout the second finds the first's attempt (a PENDING → PENDING transition alone would let
// both through); and by (a): payout_attempts_slot_nonce refuses a nonce another payout's slot
// already holds, whichever process signed it.
export async function commitSignedPayout(
  db: PgDb,
  input: { attempt: NewAttempt; transition: OrderTransition; now: number },
): Promise<void> {
  await pgTransaction(db, async (tx) => {
    const { attempt } = input;
    if (attempt.replacesAttempt !== null) {
      const [replaced] = await tx
        .select()
        .from(payoutAttempts)
        .where(eq(payoutAttempts.id, attempt.replacesAttempt));
      if (!replaced || replaced.orderRef !== attempt.orderRef || replaced.nonce !== attempt.nonce)
        throw new AppError('state_conflict', 'A replacement must reuse the slot of the payout it replaces.');
    }
    await applyOrderTransitions(tx, [input.transition], input.now);
    if (attempt.replacesAttempt === null) await refuseSecondSlot(tx, input.transition.order);
    await tx
      .insert(payoutAttempts)
      .values({ ...attempt, blockNum: null, error: null, createdAt: input.now, updatedAt: input.now });
  });
}

/** A payout has one slot that may land at a time: a new one only once every earlier one is dead. */
async function refuseSecondSlot(tx: PgTx, order: Order): Promise<void> {
  const [live] = await tx
    .select({ txHash: payoutAttempts.txHash })
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.orderRef, order.id), inArray(payoutAttempts.status, LIVE)))
    .limit(1);
  if (live) throw secondSlotRefused(order.orderId, live.txHash);
}

/**
 * Records what the chain says about attempts, moves their payouts and closes stuck holds whose
 * transaction showed up after all, atomically.
 */
// Kept correct by (a): the transitions' guarded UPDATEs (a payout moved meanwhile is a conflict and
// rolls the attempts' updates back with it) and resolveHolds' `resolved_at IS NULL` guard.
export async function recordPayoutProgress(
  db: PgDb,
  input: { attempts: AttemptUpdate[]; transitions: OrderTransition[]; landed?: string[]; now: number },
): Promise<void> {
  await pgTransaction(db, async (tx) => {
    for (const a of input.attempts) {
      await tx
        .update(payoutAttempts)
        .set({
          status: a.status,
          ...(a.blockNum !== undefined ? { blockNum: a.blockNum } : {}),
          ...(a.error !== undefined ? { error: a.error } : {}),
          updatedAt: input.now,
        })
        .where(eq(payoutAttempts.id, a.id));
    }
    await applyOrderTransitions(tx, input.transitions, input.now);
    for (const orderRef of input.landed ?? [])
      await resolveHolds(tx, { orderRef, kind: 'stuck', resolution: 'landed', now: input.now });
  });
}
