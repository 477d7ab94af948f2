import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import type { Order } from '../../../domain/order.ts';
import { transition } from '../../../domain/order-state.ts';
import { type PgDb, type PgExecutor, type PgTx, pgTransaction } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { payoutHolds } from '../schema/payout-holds.ts';
import { rowToOrder } from './order-rows.ts';
import { applyOrderTransitions } from './orders.ts';
import { type HoldKind, openHold, openHoldsOf, type PayoutHold, resolveHolds } from './payout-holds.ts';
import { LIVE } from './payouts.ts';

// Every decision on a payout (a hold from the tracker, the operator's approve, reject, retry or fail)
// is kept correct by (b): it locks the payout's row FOR UPDATE before it reads the holds and
// attempts it decides on, and everything else that closes a hold (a transition to a final state)
// updates that row first. Of two decisions at once the second waits, then reads what the first did:
// approve and reject of one payout cannot both win, and a hold is never opened on a decision the
// operator already made.

/** The payout as it stands, its row locked until the transaction ends. */
async function lockedPayout(tx: PgTx, id: string): Promise<Order> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  if (!row) throw new AppError('order_not_found', `No payout ${id}.`);
  return rowToOrder(row);
}

/**
 * Holds a payout whose spend slot was used by something Kassa cannot identify: it stays PENDING and
 * is never given a new slot until the operator retries or fails it. Only while the judged
 * transactions (`attempts`, by id) are still followed: once the operator gave them up (retried or
 * failed the payout since they were read), that decision stands and nothing is held. Answers
 * `held` (a new hold), `still held` or `decided` (nothing held).
 */
export async function holdPayout(
  db: PgDb,
  input: { orderRef: string; attempts: string[]; reason: string; now: number },
): Promise<'held' | 'still held' | 'decided'> {
  return pgTransaction(db, async (tx) => {
    const [order] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.id, input.orderRef))
      .for('update');
    if (!order || input.attempts.length === 0) return 'decided';
    const followed = await tx
      .select({ id: payoutAttempts.id })
      .from(payoutAttempts)
      .where(
        and(
          eq(payoutAttempts.orderRef, input.orderRef),
          inArray(payoutAttempts.id, input.attempts),
          inArray(payoutAttempts.status, LIVE),
        ),
      );
    if (followed.length === 0) return 'decided';
    const { orderRef, reason, now } = input;
    return (await openHold(tx, { orderRef, reason, now, kind: 'stuck' })) ? 'held' : 'still held';
  });
}

/** The open holds of some payouts, by order. */
export async function holdsOf(ex: PgExecutor, orderRefs: string[]): Promise<Map<string, PayoutHold[]>> {
  return openHoldsOf(ex, orderRefs);
}

// --- the operator's decisions ---------------------------------------------------------------------

async function requireOpenHold(tx: PgTx, order: Order, kind: HoldKind, verb: string): Promise<void> {
  const open = (await openHoldsOf(tx, [order.id])).get(order.id) ?? [];
  if (!open.some((h) => h.kind === kind)) {
    const what = kind === 'approval' ? 'is not waiting for approval' : 'is not held';
    throw new AppError(
      'state_conflict',
      `Payout ${order.orderId} ${what} (status ${order.status}); nothing to ${verb}.`,
    );
  }
}

/** Approves a payout waiting for approval: the sender signs it on its next pass. */
export async function approvePayout(db: PgDb, input: { orderRef: string; now: number }): Promise<Order> {
  return pgTransaction(db, async (tx) => {
    const order = await lockedPayout(tx, input.orderRef);
    await requireOpenHold(tx, order, 'approval', 'approve');
    await resolveHolds(tx, { orderRef: order.id, kind: 'approval', resolution: 'approved', now: input.now });
    const [updated] = await applyOrderTransitions(
      tx,
      [{ order, patch: { status: order.status, reason: null } }],
      input.now,
    );
    return updated as Order;
  });
}

/** Rejects a payout waiting for approval: FAILED with the operator's reason (webhook, frozen balance released). */
export async function rejectPayout(
  db: PgDb,
  input: { orderRef: string; reason: string; now: number },
): Promise<Order> {
  return pgTransaction(db, async (tx) => {
    const order = await lockedPayout(tx, input.orderRef);
    await requireOpenHold(tx, order, 'approval', 'reject');
    await resolveHolds(tx, {
      orderRef: order.id,
      kind: 'approval',
      resolution: 'rejected',
      note: input.reason,
      now: input.now,
    });
    const [updated] = await applyOrderTransitions(
      tx,
      [{ order, patch: { status: transition('PAYOUT', order.status, 'failed'), reason: input.reason } }],
      input.now,
    );
    return updated as Order;
  });
}

async function giveUpAttempts(tx: PgTx, orderRef: string, error: string, now: number): Promise<number> {
  const rows = await tx
    .update(payoutAttempts)
    .set({ status: 'dropped', error, updatedAt: now })
    .where(and(eq(payoutAttempts.orderRef, orderRef), inArray(payoutAttempts.status, LIVE)))
    .returning({ id: payoutAttempts.id });
  return rows.length;
}

/**
 * The operator checked the chain and found that a held payout's transaction never landed: its
 * attempts are given up and the sender signs it again in a new slot.
 */
export async function retryHeldPayout(
  db: PgDb,
  input: { orderRef: string; now: number },
): Promise<{ order: Order; givenUp: number }> {
  return pgTransaction(db, async (tx) => {
    const order = await lockedPayout(tx, input.orderRef);
    await requireOpenHold(tx, order, 'stuck', 'retry');
    await resolveHolds(tx, { orderRef: order.id, kind: 'stuck', resolution: 'retried', now: input.now });
    const givenUp = await giveUpAttempts(
      tx,
      order.id,
      'given up by the operator (kassa payouts retry)',
      input.now,
    );
    return { order, givenUp };
  });
}

/**
 * The operator ends a held payout: FAILED with the reason (webhook, frozen balance released); its
 * attempts are no longer followed.
 */
export async function failHeldPayout(
  db: PgDb,
  input: { orderRef: string; reason: string; now: number },
): Promise<Order> {
  return pgTransaction(db, async (tx) => {
    const order = await lockedPayout(tx, input.orderRef);
    await requireOpenHold(tx, order, 'stuck', 'fail');
    await resolveHolds(tx, {
      orderRef: order.id,
      kind: 'stuck',
      resolution: 'failed',
      note: input.reason,
      now: input.now,
    });
    await giveUpAttempts(tx, order.id, `given up by the operator: ${input.reason}`, input.now);
    const [updated] = await applyOrderTransitions(
      tx,
      [{ order, patch: { status: transition('PAYOUT', order.status, 'failed'), reason: input.reason } }],
      input.now,
    );
    return updated as Order;
  });
}

/** Payouts with an open hold, per chain and kind (for /metrics). */
export async function heldPayoutCounts(
  ex: PgExecutor,
): Promise<{ chain: string; kind: HoldKind; n: number }[]> {
  return ex
    .select({ chain: orders.chain, kind: payoutHolds.kind, n: sql<number>`count(*)`.mapWith(Number) })
    .from(payoutHolds)
    .innerJoin(orders, eq(orders.id, payoutHolds.orderRef))
    .where(isNull(payoutHolds.resolvedAt))
    .groupBy(orders.chain, payoutHolds.kind)
    .orderBy(orders.chain, payoutHolds.kind);
}
