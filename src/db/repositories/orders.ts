import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import { notifyTypeFor } from '../../domain/events.ts';
import { toNotifyOrder } from '../../domain/notify-order.ts';
import { isFinalStatus, type Order, type OrderStatus, type OrderType } from '../../domain/order.ts';
import { newId } from '../../lib/ids.ts';
import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';
import { orders } from '../schema/orders.ts';
import { webhookEvents } from '../schema/webhook-events.ts';
import { settleOrderMoney } from './ledger.ts';
import {
  type OrderPatch,
  type OrderRow,
  patchToColumns,
  rowToOrder,
  snakeRowToOrderRow,
} from './order-rows.ts';
import { resolveHolds } from './payout-holds.ts';

/** An order about to be created; the repository fills in ids, the deposit address and times. */
export interface NewOrder {
  merchantId: string;
  orderId: string;
  uid: string | null;
  type: OrderType;
  chain: Order['chain'];
  symbol: string;
  tokenContract: string | null;
  decimals: number;
  amount: string;
  amountBase: bigint;
  fee: string;
  /** Payout: the hot wallet. Collection: filled from the address pool. */
  address: string | null;
  receiveAddress: string | null;
  expiresAt: number;
  paramsKey: string;
}

/** Finds a merchant's order by the merchant's orderId. */
export function findOrderByMerchantOrderId(db: Db, merchantId: string, orderId: string): Order | null {
  const row = selectByMerchantOrder(db).get({ merchantId, orderId });
  return row ? rowToOrder(row) : null;
}

// The createCollection path in plain SQL: drizzle's per-call mapping cost more than SQLite's work.
export const selectByMerchantOrder = (db: Db) =>
  prepared(db, 'orders.byMerchantOrder.raw', () => {
    const statement = db.$client.prepare(
      'SELECT * FROM orders WHERE merchant_id = @merchantId AND order_id = @orderId',
    );
    return { get: (p: { merchantId: string; orderId: string }) => snakeRowToOrderRow(statement.get(p)) };
  });

/** Finds an order by its internal id. */
export function findOrderById(db: Db, id: string): Order | null {
  const row = db.select().from(orders).where(eq(orders.id, id)).get();
  return row ? rowToOrder(row) : null;
}

/** The stored canonical parameters of an order, to tell a retry from a conflicting reuse. */
export function orderParamsKey(db: Db, id: string): string | null {
  return db.select({ k: orders.paramsKey }).from(orders).where(eq(orders.id, id)).get()?.k ?? null;
}

/** A transition to apply: the order as last read, the event's resulting status and the changed facts. */
export interface OrderTransition {
  order: Order;
  patch: OrderPatch & { status: OrderStatus };
}

/**
 * Applies transitions inside the caller's transaction (or its own): each update is guarded by the
 * status and version the caller read, and writes its webhook event (outbox) beside it. An order
 * reaching a final state moves its merchant's money in the same transaction (ledger.ts: a paid
 * collection credits, a payout debits or releases what it froze) and closes the holds it waited on.
 * A guard miss is a conflict and throws, rolling back everything.
 */
export function applyOrderTransitions(db: Db, transitions: OrderTransition[], now: number): Order[] {
  const run = () => transitions.map((t) => applyOne(db, t, now));
  return db.$client.inTransaction ? run() : writeTransaction(db, run);
}

const MUTABLE_COLUMNS = [
  'status',
  'reason',
  'receivedBase',
  'actualAmountBase',
  'txId',
  'txFrom',
  'txTo',
  'txAmountBase',
  'txBlockNum',
  'txConfirmedNum',
  'txStatus',
  'txTimestamp',
  'version',
  'updatedAt',
] as const;

const selectById = (db: Db) =>
  prepared(db, 'orders.byId', () =>
    db
      .select()
      .from(orders)
      .where(eq(orders.id, sql.placeholder('id')))
      .prepare(),
  );

const updateGuarded = (db: Db) =>
  prepared(db, 'orders.updateGuarded', () =>
    db
      .update(orders)
      .set(Object.fromEntries(MUTABLE_COLUMNS.map((c) => [c, sql.placeholder(c)])) as never)
      .where(
        and(
          eq(orders.id, sql.placeholder('id')),
          eq(orders.status, sql.placeholder('expectedStatus')),
          eq(orders.version, sql.placeholder('expectedVersion')),
        ),
      )
      .returning()
      .prepare(),
  );

const EVENT_COLUMNS = [
  'id',
  'merchantId',
  'orderRef',
  'orderVersion',
  'notifyType',
  'data',
  'status',
  'attempts',
  'nextAttemptAt',
  'createdAt',
] as const;

const insertEvent = (db: Db) =>
  prepared(db, 'webhookEvents.insert', () =>
    db
      .insert(webhookEvents)
      .values(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, sql.placeholder(c)])) as never)
      .prepare(),
  );

function applyOne(db: Db, t: OrderTransition, now: number): Order {
  const current = selectById(db).get({ id: t.order.id }) as OrderRow | undefined;
  if (!current || current.status !== t.order.status) {
    throw new AppError('state_conflict', `Order ${t.order.orderId} changed while it was being updated.`);
  }
  const statusChanged = t.patch.status !== current.status;
  const next = { ...current, ...patchToColumns(t.patch), version: current.version + 1, updatedAt: now };
  const updated = updateGuarded(db).get({
    ...Object.fromEntries(MUTABLE_COLUMNS.map((c) => [c, next[c]])),
    id: current.id,
    expectedStatus: current.status,
    expectedVersion: current.version,
  }) as OrderRow | undefined;
  if (!updated) {
    throw new AppError('state_conflict', `Order ${t.order.orderId} changed while it was being updated.`);
  }
  const order = rowToOrder(updated);
  if (statusChanged && isFinalStatus(order.status)) {
    settleOrderMoney(db, order, now);
    if (order.type === 'PAYOUT') resolveHolds(db, { orderRef: order.id, resolution: 'final', now });
  }
  const notifyType = statusChanged ? notifyTypeFor(order.status) : null;
  if (notifyType) {
    insertEvent(db).run({
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
export function findExpirableOrders(
  db: Db,
  now: number,
  limit: number,
  scannedUpTo: ReadonlyMap<string, number>,
): Order[] {
  // `or()` of nothing would be no condition at all: with no chain scanned, no collection is due
  const scanned = [...scannedUpTo].map(([chain, at]) =>
    and(eq(orders.chain, chain), lt(orders.expiresAt, at)),
  );
  if (scanned.length === 0) scanned.push(sql`0`);
  return db
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
    .orderBy(asc(orders.expiresAt))
    .limit(limit)
    .all()
    .map(rowToOrder);
}

/** Open orders of one type on a chain (not final). */
export function findOpenOrders(db: Db, chain: string, type: OrderType): Order[] {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.type, type),
        inArray(orders.status, ['INIT', 'PENDING', 'PENDING_CONFIRMATION']),
      ),
    )
    .all()
    .map(rowToOrder);
}
