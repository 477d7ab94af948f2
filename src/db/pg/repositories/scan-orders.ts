import { and, eq, gt, inArray, min, or } from 'drizzle-orm';
import type { Order } from '../../../domain/order.ts';
import type { PgExecutor } from '../client.ts';
import { depositAddresses } from '../schema/deposit-addresses.ts';
import { orders } from '../schema/orders.ts';
import { rowToOrder } from './order-rows.ts';

const OPEN = ['INIT', 'PENDING', 'PENDING_CONFIRMATION'] as const;
/** Ids or addresses per query, so a long list never meets PostgreSQL's limit of bind parameters. */
const CHUNK = 500;

/**
 * Deposit addresses the scanner watches on a chain: collections not final yet, and collections whose
 * expiry is after `sinceMs` (so late payments are still seen and recorded); `native` says whether any
 * of them was ordered in the native coin (whose deposits cost a read of every block to find).
 */
export async function watchedAddresses(
  ex: PgExecutor,
  chain: string,
  sinceMs: number,
): Promise<{ addresses: Set<string>; native: boolean }> {
  const columns = { address: orders.address, tokenContract: orders.tokenContract };
  const collections = and(eq(orders.chain, chain), eq(orders.type, 'COLLECTION'));
  const open = await ex
    .select(columns)
    .from(orders)
    .where(and(inArray(orders.status, [...OPEN]), collections));
  const recent = await ex
    .select(columns)
    .from(orders)
    .where(and(collections, gt(orders.expiresAt, sinceMs)));
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
export async function oldestUnscannedCollectionAt(
  ex: PgExecutor,
  chain: string,
  expiredSince: number,
): Promise<number | null> {
  const rows = await ex
    .select({ at: min(orders.createdAt) })
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.type, 'COLLECTION'),
        or(
          inArray(orders.status, [...OPEN]),
          and(eq(orders.status, 'EXPIRED'), gt(orders.expiresAt, expiredSince)),
        ),
      ),
    );
  return rows[0]?.at ?? null;
}

/** Collections on a chain by deposit address. */
export async function collectionsByAddress(
  ex: PgExecutor,
  chain: string,
  addresses: string[],
): Promise<Map<string, Order>> {
  const out = new Map<string, Order>();
  for (let i = 0; i < addresses.length; i += CHUNK) {
    const rows = await ex
      .select({ order: orders })
      .from(depositAddresses)
      .innerJoin(orders, eq(orders.id, depositAddresses.orderRef))
      .where(
        and(
          inArray(depositAddresses.address, addresses.slice(i, i + CHUNK)),
          eq(orders.chain, chain),
          eq(orders.type, 'COLLECTION'),
        ),
      );
    for (const r of rows) out.set(r.order.address, rowToOrder(r.order));
  }
  return out;
}

/** Open collections on a chain that already have a transaction (their confirmations move with the head). */
export async function collectionsAwaitingFinality(ex: PgExecutor, chain: string): Promise<Order[]> {
  const rows = await ex
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.type, 'COLLECTION'),
        inArray(orders.status, ['PENDING', 'PENDING_CONFIRMATION']),
      ),
    );
  return rows.map(rowToOrder);
}

/** Orders by internal id. */
export async function ordersByIds(ex: PgExecutor, ids: string[]): Promise<Map<string, Order>> {
  const out = new Map<string, Order>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex
      .select()
      .from(orders)
      .where(inArray(orders.id, ids.slice(i, i + CHUNK)));
    for (const r of rows) out.set(r.id, rowToOrder(r));
  }
  return out;
}
