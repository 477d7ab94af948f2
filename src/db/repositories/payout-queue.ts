import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Order, OrderStatus } from '../../domain/order.ts';
import type { Db } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { payoutHolds } from '../schema/payout-holds.ts';
import { rowToOrder, snakeRowToOrderRow } from './order-rows.ts';
import { type HoldKind, openHoldsOf, type PayoutHold } from './payout-holds.ts';
import type { PayoutAttempt } from './payouts.ts';

/**
 * Payouts not final yet (INIT: waiting to be signed; PENDING and PENDING_CONFIRMATION: sent), oldest
 * first, at most `limit`. Read through the status index (open orders are few).
 */
export function openPayouts(db: Db, limit: number): Order[] {
  return db.$client
    .prepare(
      `SELECT * FROM orders INDEXED BY orders_status_expires
       WHERE status IN ('INIT', 'PENDING', 'PENDING_CONFIRMATION') AND type = 'PAYOUT'
       ORDER BY created_at, id LIMIT ${Math.max(1, Math.floor(limit))}`,
    )
    .all()
    .map((raw) => rowToOrder(snakeRowToOrderRow(raw) as NonNullable<ReturnType<typeof snakeRowToOrderRow>>));
}

/** The attempts of several payouts, grouped by order, oldest first within each. */
export function attemptsOfOrders(db: Db, orderRefs: string[]): Map<string, PayoutAttempt[]> {
  const out = new Map<string, PayoutAttempt[]>();
  for (let i = 0; i < orderRefs.length; i += 500) {
    const rows = db
      .select()
      .from(payoutAttempts)
      .where(inArray(payoutAttempts.orderRef, orderRefs.slice(i, i + 500)))
      .orderBy(asc(payoutAttempts.createdAt))
      .all();
    for (const r of rows) out.set(r.orderRef, [...(out.get(r.orderRef) ?? []), r]);
  }
  return out;
}

// --- listing --------------------------------------------------------------------------------------

/** A payout with what an operator needs to judge it. */
export interface PayoutListing {
  order: Order;
  holds: PayoutHold[];
  attempts: PayoutAttempt[];
}

/**
 * Payouts, newest first: of one merchant, in one status, only those held as stuck or only those
 * awaiting approval, at most `limit`.
 */
export async function listPayouts(
  db: Db,
  filter: {
    merchantId?: string;
    status?: OrderStatus;
    hold?: HoldKind;
    orderId?: string;
    limit?: number;
  } = {},
): Promise<PayoutListing[]> {
  const held =
    filter.hold === undefined
      ? null
      : db
          .select({ orderRef: payoutHolds.orderRef })
          .from(payoutHolds)
          .where(and(eq(payoutHolds.kind, filter.hold), sql`${payoutHolds.resolvedAt} IS NULL`))
          .all()
          .map((r) => r.orderRef);
  if (held !== null && held.length === 0) return [];
  const rows = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.type, 'PAYOUT'),
        filter.merchantId === undefined ? undefined : eq(orders.merchantId, filter.merchantId),
        filter.status === undefined ? undefined : eq(orders.status, filter.status),
        filter.orderId === undefined ? undefined : eq(orders.orderId, filter.orderId),
        held === null ? undefined : inArray(orders.id, held),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(filter.limit ?? 500)
    .all()
    .map(rowToOrder);
  const holds = openHoldsOf(
    db,
    rows.map((o) => o.id),
  );
  const attempts = new Map<string, PayoutAttempt[]>();
  if (rows.length > 0) {
    for (const a of db
      .select()
      .from(payoutAttempts)
      .where(
        inArray(
          payoutAttempts.orderRef,
          rows.map((o) => o.id),
        ),
      )
      .orderBy(asc(payoutAttempts.createdAt))
      .all())
      attempts.set(a.orderRef, [...(attempts.get(a.orderRef) ?? []), a]);
  }
  return rows.map((order) => ({
    order,
    holds: holds.get(order.id) ?? [],
    attempts: attempts.get(order.id) ?? [],
  }));
}
