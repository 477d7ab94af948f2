import { inArray, type SQL, sql } from 'drizzle-orm';
import { CHAINS } from '../../../domain/chains.ts';
import type { Order, OrderStatus } from '../../../domain/order.ts';
import {
  DRIVER_CAP,
  type OrderCursor,
  type OrderFilter,
  type OrderPage,
  SCAN_WINDOW,
} from '../../repositories/order-search.ts';
import type { PgExecutor } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { rowToOrder } from './order-rows.ts';

// The same plan as SQLite's order-search.ts (bounded work per request), in PostgreSQL's terms:
// there is no INDEXED BY, so each query is shaped for the index it means and the planner picks it.

interface Clause {
  sql: SQL;
  /** A condition on the creation time only (the walk of the creation-time index applies it itself). */
  onCreation?: boolean;
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
const CHAIN_LIST = list(CHAINS);

function statusClause(status: OrderStatus | OrderStatus[]): Clause {
  return { sql: sql`status IN (${list(Array.isArray(status) ? status : [status])})` };
}

function filterClauses(filter: OrderFilter): Clause[] {
  const out: Clause[] = [];
  if (filter.merchantId) out.push({ sql: sql`merchant_id = ${filter.merchantId}` });
  if (filter.type) out.push({ sql: sql`type = ${filter.type}` });
  if (filter.chain) out.push({ sql: sql`chain = ${filter.chain}` });
  if (filter.symbol) out.push({ sql: sql`symbol = ${filter.symbol}` });
  if (filter.status) out.push(statusClause(filter.status));
  if (filter.from !== undefined) out.push({ sql: sql`created_at >= ${filter.from}`, onCreation: true });
  if (filter.to !== undefined) out.push({ sql: sql`created_at < ${filter.to}`, onCreation: true });
  return out;
}

function keyset(after: OrderCursor | null): Clause[] {
  return after ? [{ sql: sql`(created_at, id) < (${after.createdAt}, ${after.id})`, onCreation: true }] : [];
}

function where(clauses: Clause[]): SQL {
  if (clauses.length === 0) return sql``;
  return sql`WHERE ${sql.join(
    clauses.map((c) => c.sql),
    sql` AND `,
  )}`;
}

/** Conditions that an index can narrow (a prefix of that index). */
function drivers(filter: OrderFilter): Clause[] {
  const out: Clause[] = [];
  if (filter.merchantId) out.push({ sql: sql`merchant_id = ${filter.merchantId}` }); // orders_merchant_order
  if (filter.status) out.push(statusClause(filter.status)); // orders_status_expires
  // orders_chain_type_expires
  if (filter.chain)
    out.push({
      sql: filter.type
        ? sql`chain = ${filter.chain} AND type = ${filter.type}`
        : sql`chain = ${filter.chain}`,
    });
  else if (filter.type) out.push({ sql: sql`chain IN (${CHAIN_LIST}) AND type = ${filter.type}` });
  return out;
}

type IdRow = { id: string; created_at: number };

async function idRows(ex: PgExecutor, query: SQL): Promise<IdRow[]> {
  const result = await ex.execute<{ id: string; created_at: string | number }>(query);
  // a raw int8 comes back as text through drizzle's execute
  return result.rows.map((r) => ({ id: r.id, created_at: Number(r.created_at) }));
}

/** How many orders match a driver's condition, stopped past DRIVER_CAP. */
async function cappedCount(ex: PgExecutor, driver: Clause): Promise<number> {
  const result = await ex.execute<{ n: string | number }>(
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM orders WHERE ${driver.sql} LIMIT ${DRIVER_CAP + 1}) capped`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

async function loadOrders(ex: PgExecutor, ids: string[]): Promise<Order[]> {
  if (ids.length === 0) return [];
  const rows = await ex.select().from(orders).where(inArray(orders.id, ids));
  const byId = new Map(rows.map((r) => [r.id, rowToOrder(r)]));
  return ids.map((id) => byId.get(id)).filter((o): o is Order => o !== undefined);
}

async function page(ex: PgExecutor, rows: IdRow[], limit: number): Promise<OrderPage> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    orders: await loadOrders(
      ex,
      shown.map((r) => r.id),
    ),
    next: rows.length > limit && last ? { createdAt: last.created_at, id: last.id } : null,
    partial: false,
  };
}

/** Every order whose id, orderId, uid, address, payout destination or txid is one of the terms. */
function searchSubquery(terms: string[]): Clause {
  const t = list(terms);
  return {
    sql: sql`id IN (
      SELECT id FROM orders WHERE id IN (${t})
      UNION SELECT id FROM orders WHERE merchant_id IN (SELECT id FROM merchants) AND order_id IN (${t})
      UNION SELECT id FROM orders WHERE uid IN (${t}) AND uid IS NOT NULL
      UNION SELECT id FROM orders WHERE receive_address IN (${t}) AND receive_address IS NOT NULL
      UNION SELECT order_ref FROM deposit_addresses WHERE address IN (${t})
      UNION SELECT order_ref FROM chain_transfers WHERE chain IN (${CHAIN_LIST}) AND txid IN (${t})
      UNION SELECT order_ref FROM payout_attempts WHERE chain IN (${CHAIN_LIST}) AND tx_hash IN (${t}))`,
  };
}

const NEWEST_FIRST = sql`ORDER BY created_at DESC, id DESC`;

/**
 * One page of orders, newest first (creation time, then id), narrowed by `filter` and, with
 * `search`, to orders whose internal id, orderId, uid, deposit address, payout destination or any
 * transaction id (a transfer that paid it, a payout attempt) equals one of the terms.
 *
 * Stays fast on a large table by bounding the work of every request: a search looks up each kind
 * of term on its own index; a filter whose own index shows it matches at most DRIVER_CAP orders is
 * read through that index and sorted; anything broader walks the creation-time index newest
 * first, looking at no more than SCAN_WINDOW orders per request (then `partial` is true and `next`
 * continues where it stopped).
 */
export async function listOrdersPage(
  ex: PgExecutor,
  input: { filter: OrderFilter; search?: string[]; after: OrderCursor | null; limit: number },
): Promise<OrderPage> {
  const clauses = [...filterClauses(input.filter), ...keyset(input.after)];
  const take = input.limit + 1;
  if (input.search && input.search.length > 0) {
    const w = where([searchSubquery(input.search), ...clauses]);
    return page(
      ex,
      await idRows(ex, sql`SELECT id, created_at FROM orders ${w} ${NEWEST_FIRST} LIMIT ${take}`),
      input.limit,
    );
  }
  let narrowest: number | null = null;
  for (const driver of drivers(input.filter)) {
    const n = await cappedCount(ex, driver);
    if (narrowest === null || n < narrowest) narrowest = n;
  }
  if (narrowest !== null && narrowest <= DRIVER_CAP) {
    const rows = await idRows(
      ex,
      sql`SELECT id, created_at FROM orders ${where(clauses)} ${NEWEST_FIRST} LIMIT ${take}`,
    );
    return page(ex, rows, input.limit);
  }
  // Walk the newest SCAN_WINDOW orders (narrow columns), filter them, keep the first `take`.
  const range = where(clauses.filter((c) => c.onCreation));
  const rest = where(clauses.filter((c) => !c.onCreation));
  const windowSql = sql`SELECT id, created_at, merchant_id, type, chain, symbol, status FROM orders
    ${range} ${NEWEST_FIRST} LIMIT ${SCAN_WINDOW}`;
  const rows = await idRows(
    ex,
    sql`SELECT id, created_at FROM (${windowSql}) walked ${rest} ${NEWEST_FIRST} LIMIT ${take}`,
  );
  if (rows.length === take) return page(ex, rows, input.limit);
  const [boundary] = await idRows(
    ex,
    sql`SELECT id, created_at FROM orders ${range} ${NEWEST_FIRST} LIMIT 1 OFFSET ${SCAN_WINDOW - 1}`,
  );
  const result = await page(ex, rows, input.limit);
  if (!boundary) return result;
  return { ...result, next: { createdAt: boundary.created_at, id: boundary.id }, partial: true };
}
