import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Order, OrderStatus } from '../../../domain/order.ts';
import type { PayoutListing } from '../../repositories/payout-queue.ts';
import type { PgExecutor } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { payoutHolds } from '../schema/payout-holds.ts';
import { rowToOrder } from './order-rows.ts';
import { type HoldKind, openHoldsOf } from './payout-holds.ts';
import type { PayoutAttempt } from './payouts.ts';

export type { PayoutListing } from '../../repositories/payout-queue.ts';

/**
 * Payouts not final yet (INIT: waiting to be signed; PENDING and PENDING_CONFIRMATION: sent), oldest
 * first, at most `limit`. Read through the partial index of open payouts (open orders are few).
 */
export async function openPayouts(ex: PgExecutor, limit: number): Promise<Order[]> {
  const rows = await ex
    .select()
    .from(orders)
    .where(
      and(eq(orders.type, 'PAYOUT'), inArray(orders.status, ['INIT', 'PENDING', 'PENDING_CONFIRMATION'])),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(Math.max(1, Math.floor(limit)));
  return rows.map(rowToOrder);
}

/** The attempts of several payouts, grouped by order, oldest first within each. */
export async function attemptsOfOrders(
  ex: PgExecutor,
  orderRefs: string[],
): Promise<Map<string, PayoutAttempt[]>> {
  const out = new Map<string, PayoutAttempt[]>();
  for (let i = 0; i < orderRefs.length; i += 500) {
    const rows = await ex
      .select()
      .from(payoutAttempts)
      .where(inArray(payoutAttempts.orderRef, orderRefs.slice(i, i + 500)))
      .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.id));
    for (const r of rows) out.set(r.orderRef, [...(out.get(r.orderRef) ?? []), r]);
  }
  return out;
}

// --- listing --------------------------------------------------------------------------------------

/**
 * Payouts, newest first: of one merchant, in one status, only those held as stuck or only those
 * awaiting approval, at most `limit`.
 */
export async function listPayouts(
  ex: PgExecutor,
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
      : (
          await ex
            .select({ orderRef: payoutHolds.orderRef })
            .from(payoutHolds)
            .where(and(eq(payoutHolds.kind, filter.hold), isNull(payoutHolds.resolvedAt)))
        ).map((r) => r.orderRef);
  if (held !== null && held.length === 0) return [];
  const rows = (
    await ex
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
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(filter.limit ?? 500)
  ).map(rowToOrder);
  const ids = rows.map((o) => o.id);
  const holds = await openHoldsOf(ex, ids);
  const attempts = await attemptsOfOrders(ex, ids);
  return rows.map((order) => ({
    order,
    holds: holds.get(order.id) ?? [],
    attempts: attempts.get(order.id) ?? [],
  }));
}
