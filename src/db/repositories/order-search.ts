import { CHAINS } from '../../domain/chains.ts';
import type { Order, OrderStatus, OrderType } from '../../domain/order.ts';
import type { Db } from '../client.ts';
import { rowToOrder, snakeRowToOrderRow } from './order-rows.ts';

/** What the dashboard's orders list narrows by; every field is optional and they combine with AND. */
export interface OrderFilter {
  merchantId?: string;
  type?: OrderType;
  chain?: string;
  symbol?: string;
  /** One status, or any of several (e.g. the open ones). */
  status?: OrderStatus | OrderStatus[];
  /** Created at or after (epoch ms). */
  from?: number;
  /** Created before (epoch ms). */
  to?: number;
}

/** A position in the newest-first order: the creation time and internal id of the last row passed. */
export interface OrderCursor {
  createdAt: number;
  id: string;
}

/** One page of the list. */
export interface OrderPage {
  orders: Order[];
  /** Where the next page starts; null when nothing older matches. */
  next: OrderCursor | null;
  /**
   * True when the page stopped early because SCAN_WINDOW orders were looked at (rare filters on a
   * large table): `next` is then the last order looked at, and older ones may still match.
   */
  partial: boolean;
}

/** The most orders one page request looks at when no index narrows the filter enough. */
export const SCAN_WINDOW = 25_000;
/** An index is used to drive the query when its filter alone matches at most this many orders. */
export const DRIVER_CAP = 5_000;

type Params = Record<string, string | number>;

interface Clause {
  sql: string;
  params: Params;
  /** A condition on the creation time only (the walk of the creation-time index applies it itself). */
  onCreation?: boolean;
}

const CHAIN_LIST = CHAINS.map((c) => `'${c}'`).join(', ');

function statusClause(status: OrderStatus | OrderStatus[]): Clause {
  const list = Array.isArray(status) ? status : [status];
  const params: Params = {};
  list.forEach((value, i) => {
    params[`status${i}`] = value;
  });
  return { sql: `status IN (${list.map((_, i) => `@status${i}`).join(', ')})`, params };
}

function filterClauses(filter: OrderFilter): Clause[] {
  const out: Clause[] = [];
  if (filter.merchantId)
    out.push({ sql: 'merchant_id = @merchantId', params: { merchantId: filter.merchantId } });
  if (filter.type) out.push({ sql: 'type = @type', params: { type: filter.type } });
  if (filter.chain) out.push({ sql: 'chain = @chain', params: { chain: filter.chain } });
  if (filter.symbol) out.push({ sql: 'symbol = @symbol', params: { symbol: filter.symbol } });
  if (filter.status) out.push(statusClause(filter.status));
  if (filter.from !== undefined)
    out.push({ sql: 'created_at >= @from', params: { from: filter.from }, onCreation: true });
  if (filter.to !== undefined)
    out.push({ sql: 'created_at < @to', params: { to: filter.to }, onCreation: true });
  return out;
}

function keyset(after: OrderCursor | null): Clause[] {
  return after
    ? [
        {
          sql: '(created_at, id) < (@afterAt, @afterId)',
          params: { afterAt: after.createdAt, afterId: after.id },
          onCreation: true,
        },
      ]
    : [];
}

function where(clauses: Clause[]): { sql: string; params: Params } {
  if (clauses.length === 0) return { sql: '', params: {} };
  return {
    sql: `WHERE ${clauses.map((c) => c.sql).join(' AND ')}`,
    params: Object.assign({}, ...clauses.map((c) => c.params)),
  };
}

/** An index that can narrow a filter, and the condition it narrows by (a prefix of the index). */
interface Driver {
  index: string;
  clause: Clause;
}

function drivers(filter: OrderFilter): Driver[] {
  const out: Driver[] = [];
  if (filter.merchantId)
    out.push({
      index: 'orders_merchant_order',
      clause: { sql: 'merchant_id = @merchantId', params: { merchantId: filter.merchantId } },
    });
  if (filter.status) out.push({ index: 'orders_status_expires', clause: statusClause(filter.status) });
  if (filter.chain)
    out.push({
      index: 'orders_chain_type_expires',
      clause: filter.type
        ? { sql: 'chain = @chain AND type = @type', params: { chain: filter.chain, type: filter.type } }
        : { sql: 'chain = @chain', params: { chain: filter.chain } },
    });
  else if (filter.type)
    out.push({
      index: 'orders_chain_type_expires',
      clause: { sql: `chain IN (${CHAIN_LIST}) AND type = @type`, params: { type: filter.type } },
    });
  return out;
}

/** How many orders match a driver's condition, counted on its index only and stopped past DRIVER_CAP. */
function cappedCount(db: Db, driver: Driver): number {
  const row = db.$client
    .prepare(
      `SELECT count(*) AS n FROM (SELECT 1 FROM orders INDEXED BY ${driver.index} WHERE ${driver.clause.sql} LIMIT ${DRIVER_CAP + 1})`,
    )
    .get(driver.clause.params) as { n: number };
  return row.n;
}

function loadOrders(db: Db, ids: string[]): Order[] {
  if (ids.length === 0) return [];
  const rows = db.$client
    .prepare(`SELECT * FROM orders WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .all(...ids)
    .map((raw) => rowToOrder(snakeRowToOrderRow(raw) as NonNullable<ReturnType<typeof snakeRowToOrderRow>>));
  const byId = new Map(rows.map((o) => [o.id, o]));
  return ids.map((id) => byId.get(id)).filter((o): o is Order => o !== undefined);
}

function page(db: Db, rows: { id: string; created_at: number }[], limit: number): OrderPage {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    orders: loadOrders(
      db,
      shown.map((r) => r.id),
    ),
    next: rows.length > limit && last ? { createdAt: last.created_at, id: last.id } : null,
    partial: false,
  };
}

/** The SQL of the search: every order whose id, orderId, uid, address, payout destination or txid is one of the terms. */
function searchSubquery(terms: string[]): Clause {
  const params: Params = {};
  const names = terms.map((term, i) => {
    params[`t${i}`] = term;
    return `@t${i}`;
  });
  const list = names.join(', ');
  return {
    sql: `id IN (
      SELECT id FROM orders WHERE id IN (${list})
      UNION SELECT id FROM orders WHERE merchant_id IN (SELECT id FROM merchants) AND order_id IN (${list})
      UNION SELECT id FROM orders WHERE uid IN (${list}) AND uid IS NOT NULL
      UNION SELECT id FROM orders WHERE receive_address IN (${list}) AND receive_address IS NOT NULL
      UNION SELECT order_ref FROM deposit_addresses WHERE address IN (${list})
      UNION SELECT order_ref FROM chain_transfers WHERE chain IN (${CHAIN_LIST}) AND txid IN (${list})
      UNION SELECT order_ref FROM payout_attempts WHERE chain IN (${CHAIN_LIST}) AND tx_hash IN (${list}))`,
    params,
  };
}

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
export function listOrdersPage(
  db: Db,
  input: { filter: OrderFilter; search?: string[]; after: OrderCursor | null; limit: number },
): OrderPage {
  const clauses = [...filterClauses(input.filter), ...keyset(input.after)];
  const take = input.limit + 1;
  if (input.search && input.search.length > 0) {
    const w = where([searchSubquery(input.search), ...clauses]);
    const rows = db.$client
      .prepare(`SELECT id, created_at FROM orders ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ${take}`)
      .all(w.params) as { id: string; created_at: number }[];
    return page(db, rows, input.limit);
  }
  const narrow = drivers(input.filter)
    .map((d) => ({ driver: d, n: cappedCount(db, d) }))
    .sort((a, b) => a.n - b.n)[0];
  if (narrow && narrow.n <= DRIVER_CAP) {
    const w = where(clauses);
    const rows = db.$client
      .prepare(
        `SELECT id, created_at FROM orders INDEXED BY ${narrow.driver.index} ${w.sql}
         ORDER BY created_at DESC, id DESC LIMIT ${take}`,
      )
      .all(w.params) as { id: string; created_at: number }[];
    return page(db, rows, input.limit);
  }
  // Walk the newest SCAN_WINDOW orders (narrow columns), filter them, keep the first `take`.
  const range = where(clauses.filter((c) => c.onCreation));
  const rest = where(clauses.filter((c) => !c.onCreation));
  const windowSql = `SELECT id, created_at, merchant_id, type, chain, symbol, status FROM orders INDEXED BY orders_created
    ${range.sql} ORDER BY created_at DESC, id DESC LIMIT ${SCAN_WINDOW}`;
  const rows = db.$client
    .prepare(`SELECT id, created_at FROM (${windowSql}) ${rest.sql} LIMIT ${take}`)
    .all({ ...range.params, ...rest.params }) as { id: string; created_at: number }[];
  if (rows.length === take) return page(db, rows, input.limit);
  const boundary = db.$client
    .prepare(
      `SELECT id, created_at FROM orders INDEXED BY orders_created ${range.sql}
       ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${SCAN_WINDOW - 1}`,
    )
    .get(range.params) as { id: string; created_at: number } | undefined;
  const result = page(db, rows, input.limit);
  if (!boundary) return result;
  return { ...result, next: { createdAt: boundary.created_at, id: boundary.id }, partial: true };
}
