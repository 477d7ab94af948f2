import { and, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Order } from '../../domain/order.ts';
import type { Db } from '../client.ts';
import { depositAddresses } from '../schema/deposit-addresses.ts';
import { orders } from '../schema/orders.ts';
import { rowToOrder } from './order-rows.ts';

/**
 * Deposit addresses the scanner watches on a chain: collections not final yet, and collections whose
 * expiry is after `sinceMs` (so late payments are still seen and recorded); `native` says whether any
 * of them was ordered in the native coin (whose deposits cost a read of every block to find).
 */
export function watchedAddresses(
  db: Db,
  chain: string,
  sinceMs: number,
): { addresses: Set<string>; native: boolean } {
  const columns = { address: orders.address, tokenContract: orders.tokenContract };
  const open = db
    .select(columns)
    .from(orders)
    .where(
      and(
        inArray(orders.status, ['INIT', 'PENDING', 'PENDING_CONFIRMATION']),
        eq(orders.chain, chain),
        eq(orders.type, 'COLLECTION'),
      ),
    )
    .all();
  const recent = db
    .select(columns)
    .from(orders)
    .where(and(eq(orders.chain, chain), eq(orders.type, 'COLLECTION'), gt(orders.expiresAt, sinceMs)))
    .all();
  const rows = [...open, ...recent];
  return {
    addresses: new Set(rows.map((r) => r.address)),
    native: rows.some((r) => r.tokenContract === null),
  };
}

/**
 * Creation time (ms) of the oldest collection on a chain whose payments a first scan must read: one
 * still open, or one that expired after `expiredSince` (on a chain with no checkpoint yet, such an
 * order expired without anyone reading the chain; its payment must still be found and listed).
 * Null when there is none.
 */
export function oldestUnscannedCollectionAt(db: Db, chain: string, expiredSince: number): number | null {
  const row = db
    .select({ at: sql<number | null>`min(${orders.createdAt})` })
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.type, 'COLLECTION'),
        or(
          inArray(orders.status, ['INIT', 'PENDING', 'PENDING_CONFIRMATION']),
          and(eq(orders.status, 'EXPIRED'), gt(orders.expiresAt, expiredSince)),
        ),
      ),
    )
    .get();
  return row?.at ?? null;
}

/** Collections on a chain by deposit address. */
export function collectionsByAddress(db: Db, chain: string, addresses: string[]): Map<string, Order> {
  const out = new Map<string, Order>();
  for (let i = 0; i < addresses.length; i += 500) {
    const rows = db
      .select({ order: orders })
      .from(depositAddresses)
      .innerJoin(orders, eq(orders.id, depositAddresses.orderRef))
      .where(
        and(
          inArray(depositAddresses.address, addresses.slice(i, i + 500)),
          eq(orders.chain, chain),
          eq(orders.type, 'COLLECTION'),
        ),
      )
      .all();
    for (const r of rows) out.set(r.order.address, rowToOrder(r.order));
  }
  return out;
}

/** Open collections on a chain that already have a transaction (their confirmations move with the head). */
export function collectionsAwaitingFinality(db: Db, chain: string): Order[] {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.type, 'COLLECTION'),
        inArray(orders.status, ['PENDING', 'PENDING_CONFIRMATION']),
      ),
    )
    .all()
    .map(rowToOrder);
}

/** Orders by internal id. */
export function ordersByIds(db: Db, ids: string[]): Map<string, Order> {
  const out = new Map<string, Order>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of db
      .select()
      .from(orders)
      .where(inArray(orders.id, ids.slice(i, i + 500)))
      .all())
      out.set(r.id, rowToOrder(r));
  }
  return out;
}
