import { asc, inArray } from 'drizzle-orm';
import type { Order } from '../../domain/order.ts';
import type { Db } from '../client.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { rowToOrder, snakeRowToOrderRow } from './order-rows.ts';
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
