import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import { notifyTypeFor } from '../../../domain/events.ts';
import { toNotifyOrder } from '../../../domain/notify-order.ts';
import { isFinalStatus, type Order } from '../../../domain/order.ts';
import { newId } from '../../../lib/ids.ts';
import type { OrderTransition } from '../../repositories/orders.ts';
import { inTransaction, type PgExecutor, type PgTx } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { webhookEvents } from '../schema/webhook-events.ts';
import { settleOrderMoney } from './ledger.ts';
import { type OrderRow, patchToColumns, rowToOrder } from './order-rows.ts';
import { resolveHolds } from './payout-holds.ts';

export type { NewOrder, OrderTransition } from '../../repositories/orders.ts';

/** Finds a merchant's order by the merchant's orderId. */
export async function findOrderByMerchantOrderId(
  ex: PgExecutor,
  merchantId: string,
  orderId: string,
): Promise<Order | null> {
  const row = await selectByMerchantOrder(ex, { merchantId, orderId });
  return row ? rowToOrder(row) : null;
}

/** The stored row of a merchant's order by the merchant's orderId (its paramsKey included). */
export async function selectByMerchantOrder(
  ex: PgExecutor,
  key: { merchantId: string; orderId: string },
): Promise<OrderRow | undefined> {
  const rows = await ex
    .select()
    .from(orders)
    .where(and(eq(orders.merchantId, key.merchantId), eq(orders.orderId, key.orderId)));
  return rows[0];
}

/** Finds an order by its internal id. */
export async function findOrderById(ex: PgExecutor, id: string): Promise<Order | null> {
  const rows = await ex.select().from(orders).where(eq(orders.id, id));
  return rows[0] ? rowToOrder(rows[0]) : null;
}

/** The stored canonical parameters of an order, to tell a retry from a conflicting reuse. */
export async function orderParamsKey(ex: PgExecutor, id: string): Promise<string | null> {
  const rows = await ex.select({ k: orders.paramsKey }).from(orders).where(eq(orders.id, id));
  return rows[0]?.k ?? null;
}

/**
 * Applies transitions inside the caller's transaction (or its own): each update is guarded by the
 * status the caller read, and writes its webhook event (outbox) beside it. An order reaching a final
 * state moves its merchant's money in the same transaction (ledger.ts: a paid collection credits, a
 * payout debits or releases what it froze) and closes the holds it waited on. A guard miss is a
 * conflict and throws, rolling back everything.
 */
export function applyOrderTransitions(
  ex: PgExecutor,
  transitions: OrderTransition[],
  now: number,
): Promise<Order[]> {
  return inTransaction(ex, async (tx) => {
    const out: Order[] = [];
    for (const t of transitions) out.push(await applyOne(tx, t, now));
    return out;
  });
}

// Kept correct by (a) one atomic statement: the UPDATE's WHERE is the guard. A concurrent transition
// of the same order holds the row lock until it commits; this UPDATE then re-reads the row and, its
// status having moved on, matches nothing: a conflict, as SQLite's read-then-update gives when the
// other write came first. The version grows by one with each transition (events keep their order).
async function applyOne(tx: PgTx, t: OrderTransition, now: number): Promise<Order> {
  const [updated] = await tx
    .update(orders)
    .set({ ...patchToColumns(t.patch), version: sql`${orders.version} + 1`, updatedAt: now })
    .where(and(eq(orders.id, t.order.id), eq(orders.status, t.order.status)))
    .returning();
  if (!updated) {
    throw new AppError('state_conflict', `Order ${t.order.orderId} changed while it was being updated.`);
  }
  const order = rowToOrder(updated);
  const statusChanged = t.patch.status !== t.order.status;
  if (statusChanged && isFinalStatus(order.status)) {
    await settleOrderMoney(tx, order, now);
    if (order.type === 'PAYOUT') await resolveHolds(tx, { orderRef: order.id, resolution: 'final', now });
  }
  const notifyType = statusChanged ? notifyTypeFor(order.status) : null;
  if (notifyType) {
    await tx.insert(webhookEvents).values({
      id: newId('evt'),
      merchantId: order.merchantId,
      orderRef: order.id,
      orderVersion: updated.version,
      notifyType,
      data: JSON.stringify(toNotifyOrder(order)),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  }
  return order;
}

/**
 * Orders that may expire at `now`: payouts in INIT, and collections in INIT or PENDING whose chain's
 * scanner has read a block later than their expiry (`scannedUpTo`: per chain, epoch ms of the
 * checkpoint's block). A collection on a chain missing from `scannedUpTo` (never scanned) is never
 * returned, so a chain that is down or behind cannot crowd the others out of the `limit`.
 */
export async function findExpirableOrders(
  ex: PgExecutor,
  now: number,
  limit: number,
  scannedUpTo: ReadonlyMap<string, number>,
): Promise<Order[]> {
  // `or()` of nothing would be no condition at all: with no chain scanned, no collection is due
  const scanned = [...scannedUpTo].map(([chain, at]) =>
    and(eq(orders.chain, chain), lt(orders.expiresAt, at)),
  );
  if (scanned.length === 0) scanned.push(sql`false`);
  const rows = await ex
    .select()
    .from(orders)
    .where(
      and(
        lte(orders.expiresAt, now),
        or(
          and(eq(orders.type, 'PAYOUT'), eq(orders.status, 'INIT')),
          and(eq(orders.type, 'COLLECTION'), inArray(orders.status, ['INIT', 'PENDING']), or(...scanned)),
        ),
      ),
    )
    .orderBy(asc(orders.expiresAt), asc(orders.id))
    .limit(limit);
  return rows.map(rowToOrder);
}
