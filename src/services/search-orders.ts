import type { OrderCursor, OrderFilter } from '../db/store.ts';

import { isChain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import { ORDER_STATUSES, type Order, type OrderStatus } from '../domain/order.ts';
import { toChecksumAddress } from '../keys/encode.ts';
import type { Deps } from './deps.ts';

/** The dashboard's orders query, as typed into its form (every field optional, all text). */
export interface OrdersQuery {
  q?: string;
  merchant?: string;
  type?: string;
  chain?: string;
  symbol?: string;
  /** A status, or `open` for every status that is not final. */
  status?: string;
  /** YYYY-MM-DD (UTC), inclusive. */
  from?: string;
  /** YYYY-MM-DD (UTC), inclusive. */
  to?: string;
  /** The `next` of the previous page. */
  after?: string;
}

/** One page of orders for the dashboard. */
export interface OrdersResult {
  orders: (Order & { merchantName: string | null })[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  next: string | null;
  /** True when the page stopped early on a rare filter: older orders were not looked at yet. */
  partial: boolean;
  /** With `partial`: orders created before this time (epoch ms) are on the next pages. */
  lookedBackTo: number | null;
}

export const ORDERS_PAGE_SIZE = 50;

/** What `status=open` stands for: every status that is not final. */
export const OPEN_STATUSES: OrderStatus[] = ['INIT', 'PENDING', 'PENDING_CONFIRMATION'];

const DAY_MS = 86_400_000;

function day(text: string, field: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text)
    throw new AppError('validation', `${field} must be a date as YYYY-MM-DD.`);
  return ms;
}

/** The cursor of a page as text: `<createdAt>.<id>`. */
export function cursorText(cursor: OrderCursor): string {
  return `${cursor.createdAt}.${cursor.id}`;
}

/** Parses a page cursor; throws `validation` for anything else. */
export function parseCursor(text: string): OrderCursor {
  const m = /^(\d{1,15})\.([a-z]{2,4}_[a-z0-9]{4,40})$/.exec(text);
  if (!m) throw new AppError('validation', 'The page link is not valid any more; start from the first page.');
  return { createdAt: Number(m[1]), id: m[2] as string };
}

/**
 * What a search box entry may be stored as: the text itself, and for hex (EVM addresses and
 * hashes, TRON hashes) its lower-case and EIP-55 spellings, with and without `0x`.
 */
export function searchTerms(q: string): string[] {
  const text = q.trim();
  if (!text) return [];
  const terms = new Set([text]);
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) {
    terms.add(text.toLowerCase());
    terms.add(toChecksumAddress(text.toLowerCase()));
  }
  const hash = /^(0x)?([0-9a-fA-F]{64})$/.exec(text);
  if (hash) {
    const lower = (hash[2] as string).toLowerCase();
    terms.add(lower);
    terms.add(`0x${lower}`);
  }
  return [...terms];
}

function filterOf(query: OrdersQuery): OrderFilter {
  const filter: OrderFilter = {};
  if (query.merchant) filter.merchantId = query.merchant;
  if (query.type) {
    if (query.type !== 'COLLECTION' && query.type !== 'PAYOUT')
      throw new AppError('validation', 'type must be COLLECTION or PAYOUT.');
    filter.type = query.type;
  }
  if (query.chain) {
    if (!isChain(query.chain)) throw new AppError('validation', `Unknown chain ${query.chain}.`);
    filter.chain = query.chain;
  }
  if (query.symbol) filter.symbol = query.symbol.toUpperCase();
  if (query.status === 'open') filter.status = OPEN_STATUSES;
  else if (query.status) {
    if (!(ORDER_STATUSES as readonly string[]).includes(query.status))
      throw new AppError('validation', `Unknown status ${query.status}.`);
    filter.status = query.status as OrderStatus;
  }
  if (query.from) filter.from = day(query.from, 'from');
  if (query.to) filter.to = day(query.to, 'to') + DAY_MS;
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to)
    throw new AppError('validation', '"from" must be on or before "to".');
  return filter;
}

/**
 * A page of orders for the dashboard, newest first: filtered by merchant, type, chain, symbol,
 * status and creation dates (UTC days, both inclusive), and with `q` only the orders whose id,
 * orderId, uid, deposit address, payout destination or transaction id is `q`. Each request does
 * bounded work however large the table (see listOrdersPage). Throws `validation` for a bad field.
 */
export async function searchOrders(
  deps: Pick<Deps, 'db'>,
  query: OrdersQuery,
  limit = ORDERS_PAGE_SIZE,
): Promise<OrdersResult> {
  const filter = filterOf(query);
  const after = query.after ? parseCursor(query.after) : null;
  const terms = query.q ? searchTerms(query.q) : [];
  const page = await deps.db.listOrdersPage({
    filter,
    search: terms.length > 0 ? terms : undefined,
    after,
    limit,
  });
  const names = new Map((await deps.db.listMerchants()).map((m) => [m.id, m.name]));
  return {
    orders: page.orders.map((o) => ({ ...o, merchantName: names.get(o.merchantId) ?? null })),
    next: page.next ? cursorText(page.next) : null,
    partial: page.partial,
    lookedBackTo: page.partial && page.next ? page.next.createdAt : null,
  };
}
