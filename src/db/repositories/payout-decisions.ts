import { and, eq, inArray, sql } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import { transition } from '../../domain/order-state.ts';
import { type Db, writeTransaction } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { payoutHolds } from '../schema/payout-holds.ts';
import { applyOrderTransitions, findOrderById } from './orders.ts';
import { type HoldKind, openHold, openHoldsOf, type PayoutHold, resolveHolds } from './payout-holds.ts';
import { LIVE } from './payouts.ts';

/**
 * Holds a payout whose spend slot was used by something Kassa cannot identify: it stays PENDING and
 * is never given a new slot until the operator retries or fails it. Returns whether the hold is new.
 */
export async function holdPayout(
  db: Db,
  input: { orderRef: string; reason: string; now: number },
): Promise<boolean> {
  return writeTransaction(db, () => openHold(db, { ...input, kind: 'stuck' }));
}

/** The open holds of some payouts, by order. */
export async function holdsOf(db: Db, orderRefs: string[]): Promise<Map<string, PayoutHold[]>> {
  return openHoldsOf(db, orderRefs);
}

// --- the operator's decisions ---------------------------------------------------------------------

function requireOpenHold(db: Db, order: Order, kind: HoldKind, verb: string): void {
  const open = openHoldsOf(db, [order.id]).get(order.id) ?? [];
  if (!open.some((h) => h.kind === kind)) {
    const what = kind === 'approval' ? 'is not waiting for approval' : 'is not held';
    throw new AppError(
      'state_conflict',
      `Payout ${order.orderId} ${what} (status ${order.status}); nothing to ${verb}.`,
    );
  }
}

function current(db: Db, id: string): Order {
  const order = findOrderById(db, id);
  if (!order) throw new AppError('order_not_found', `No payout ${id}.`);
  return order;
}

/** Approves a payout waiting for approval: the sender signs it on its next pass. */
export async function approvePayout(db: Db, input: { orderRef: string; now: number }): Promise<Order> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'approval', 'approve');
    resolveHolds(db, { orderRef: order.id, kind: 'approval', resolution: 'approved', now: input.now });
    const [updated] = applyOrderTransitions(
      db,
      [{ order, patch: { status: order.status, reason: null } }],
      input.now,
    );
    return updated as Order;
  });
}

/** Rejects a payout waiting for approval: FAILED with the operator's reason (webhook, frozen balance released). */
export async function rejectPayout(
  db: Db,
  input: { orderRef: string; reason: string; now: number },
): Promise<Order> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'approval', 'reject');
    resolveHolds(db, {
      orderRef: order.id,
      kind: 'approval',
      resolution: 'rejected',
      note: input.reason,
      now: input.now,
    });
    const [updated] = applyOrderTransitions(
      db,
      [{ order, patch: { status: transition('PAYOUT', order.status, 'failed'), reason: input.reason } }],
      input.now,
    );
    return updated as Order;
  });
}

function giveUpAttempts(db: Db, orderRef: string, error: string, now: number): number {
  return db
    .update(payoutAttempts)
    .set({ status: 'dropped', error, updatedAt: now })
    .where(and(eq(payoutAttempts.orderRef, orderRef), inArray(payoutAttempts.status, LIVE)))
    .run().changes;
}

/**
 * The operator checked the chain and found that a held payout's transaction never landed: its
 * attempts are given up and the sender signs it again in a new slot.
 */
export async function retryHeldPayout(
  db: Db,
  input: { orderRef: string; now: number },
): Promise<{ order: Order; givenUp: number }> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'stuck', 'retry');
    resolveHolds(db, { orderRef: order.id, kind: 'stuck', resolution: 'retried', now: input.now });
    const givenUp = giveUpAttempts(db, order.id, 'given up by the operator (kassa payouts retry)', input.now);
    return { order, givenUp };
  });
}

/**
 * The operator ends a held payout: FAILED with the reason (webhook, frozen balance released); its
 * attempts are no longer followed.
 */
export async function failHeldPayout(
  db: Db,
  input: { orderRef: string; reason: string; now: number },
): Promise<Order> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'stuck', 'fail');
    resolveHolds(db, {
      orderRef: order.id,
      kind: 'stuck',
      resolution: 'failed',
      note: input.reason,
      now: input.now,
    });
    giveUpAttempts(db, order.id, `given up by the operator: ${input.reason}`, input.now);
    const [updated] = applyOrderTransitions(
      db,
      [{ order, patch: { status: transition('PAYOUT', order.status, 'failed'), reason: input.reason } }],
      input.now,
    );
    return updated as Order;
  });
}

/** Payouts with an open hold, per chain and kind (for /metrics). */
export async function heldPayoutCounts(db: Db): Promise<{ chain: string; kind: HoldKind; n: number }[]> {
  return db
    .select({ chain: orders.chain, kind: payoutHolds.kind, n: sql<number>`count(*)` })
    .from(payoutHolds)
    .innerJoin(orders, eq(orders.id, payoutHolds.orderRef))
    .where(sql`${payoutHolds.resolvedAt} IS NULL`)
    .groupBy(orders.chain, payoutHolds.kind)
    .all();
}
