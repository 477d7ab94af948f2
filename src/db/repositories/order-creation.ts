import { eq, sql } from 'drizzle-orm';
import type { Family } from '../../domain/chains.ts';
import { AppError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import { newId } from '../../lib/ids.ts';
import { batchedWrite } from '../batched-write.ts';
import type { Db } from '../client.ts';
import { prepared } from '../prepared.ts';
import { depositAddresses } from '../schema/deposit-addresses.ts';
import { type OrderRow, rowToOrder } from './order-rows.ts';
import { type NewOrder, selectByMerchantOrder } from './orders.ts';

const selectFreeAddress = (db: Db) =>
  prepared(db, 'deposit.free.raw', () =>
    db.$client.prepare<{ family: string }, { idx: number; address: string }>(
      'SELECT idx, address FROM deposit_addresses WHERE family = @family AND order_ref IS NULL ORDER BY idx LIMIT 1',
    ),
  );

const takeAddress = (db: Db) =>
  prepared(db, 'deposit.take.raw', () =>
    db.$client.prepare(
      'UPDATE deposit_addresses SET order_ref = @orderRef, allocated_at = @now WHERE family = @family AND idx = @idx',
    ),
  );

/**
 * The order insert, in plain SQL: on the createCollection path drizzle's per-call mapping cost more
 * than SQLite's own work, and the new row is known in full without reading it back.
 */
const insertOrderStatement = (db: Db) =>
  prepared(db, 'orders.insert.raw', () =>
    db.$client.prepare(
      `INSERT INTO orders (id, merchant_id, order_id, uid, type, chain, symbol, token_contract, decimals, amount,
         amount_base, fee, status, reason, address, receive_address, expires_at, params_key, created_at, updated_at)
       VALUES (@id, @merchantId, @orderId, @uid, @type, @chain, @symbol, @tokenContract, @decimals, @amount,
         @amountBase, @fee, @status, @reason, @address, @receiveAddress, @expiresAt, @paramsKey, @createdAt,
         @updatedAt)`,
    ),
  );

/**
 * Creates an order, idempotently on (merchant, orderId): when the orderId exists, nothing is
 * written and the existing order comes back with `created: false` (the caller compares
 * parameters). A collection takes the lowest free deposit address of its family from the pool, or
 * derives the next index with `derive` when the pool is empty; the address is never reused.
 * Group-committed with the other API writes (see batched-write.ts).
 */
export function createOrder(
  db: Db,
  input: {
    order: NewOrder;
    family: Family | null;
    derive: (family: Family, index: number) => string;
    now: number;
  },
): Promise<{ order: Order; created: boolean; paramsKey: string }> {
  return batchedWrite(db, () => {
    const existing = selectByMerchantOrder(db).get({
      merchantId: input.order.merchantId,
      orderId: input.order.orderId,
    });
    if (existing) return { order: rowToOrder(existing), created: false, paramsKey: existing.paramsKey };
    const id = newId('ord');
    let address = input.order.address;
    if (input.family) address = takeDepositAddress(db, input.family, id, input.now, input.derive);
    if (!address) throw new AppError('internal', 'An order needs an address.');
    const order = insertOrder(db, { ...input.order, id, address }, input.now);
    return { order, created: true, paramsKey: input.order.paramsKey };
  });
}

/**
 * Inserts a new order in INIT inside the caller's transaction and returns it; the caller has
 * checked that its (merchant, orderId) is free and chosen its id and address.
 */
export function insertOrder(
  db: Db,
  order: NewOrder & { id: string; address: string; reason?: string | null },
  now: number,
): Order {
  const row: OrderRow = {
    id: order.id,
    merchantId: order.merchantId,
    orderId: order.orderId,
    uid: order.uid,
    type: order.type,
    chain: order.chain,
    symbol: order.symbol,
    tokenContract: order.tokenContract,
    decimals: order.decimals,
    amount: order.amount,
    amountBase: order.amountBase.toString(),
    fee: order.fee,
    status: 'INIT',
    reason: order.reason ?? null,
    address: order.address,
    receiveAddress: order.receiveAddress,
    expiresAt: order.expiresAt,
    receivedBase: '0',
    actualAmountBase: null,
    txId: null,
    txFrom: null,
    txTo: null,
    txAmountBase: null,
    txBlockNum: null,
    txConfirmedNum: null,
    txStatus: null,
    txTimestamp: null,
    paramsKey: order.paramsKey,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  insertOrderStatement(db).run(row);
  return rowToOrder(row);
}

function takeDepositAddress(
  db: Db,
  family: Family,
  orderRef: string,
  now: number,
  derive: (family: Family, index: number) => string,
): string {
  const free = selectFreeAddress(db).get({ family });
  if (free) {
    takeAddress(db).run({ orderRef, now, family, idx: free.idx });
    return free.address;
  }
  const next = nextDepositIndex(db, family);
  const address = derive(family, next);
  db.insert(depositAddresses)
    .values({ family, idx: next, address, orderRef, createdAt: now, allocatedAt: now })
    .run();
  return address;
}

/** The next derivation index never used for a family. */
export function nextDepositIndex(db: Db, family: Family): number {
  const row = db
    .select({ max: sql<number | null>`max(${depositAddresses.idx})` })
    .from(depositAddresses)
    .where(eq(depositAddresses.family, family))
    .get();
  return (row?.max ?? -1) + 1;
}
