import { sql } from 'drizzle-orm';
import type { Family } from '../../../domain/chains.ts';
import { AppError } from '../../../domain/errors.ts';
import type { Order } from '../../../domain/order.ts';
import { newId } from '../../../lib/ids.ts';
import type { NewOrder } from '../../repositories/orders.ts';
import { isUniqueViolation, type PgDb, type PgExecutor, type PgTx, pgTransaction } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { deriveDepositAddress, takeFreeDepositAddress } from './deposit-addresses.ts';
import { type OrderRow, rowToOrder } from './order-rows.ts';
import { selectByMerchantOrder } from './orders.ts';

/** Namespace of the transaction-scoped advisory locks on one (merchant, orderId). */
const ORDER_KEY_LOCK = 0x4b4f; // 'KO'

/**
 * Waits for any other transaction creating the same (merchant, orderId), then reads what is stored
 * under it: the check before creating an order, inside the caller's transaction. Every path that
 * creates an order (collections, payouts) takes it, so a concurrent duplicate waits for the first
 * one's commit and then sees its order instead of taking a deposit address or a payout slot.
 */
export async function lockMerchantOrderId(
  tx: PgTx,
  key: { merchantId: string; orderId: string },
): Promise<OrderRow | undefined> {
  // Two int4 keys: a hash collision only makes two creations wait for each other, never wrong. The
  // merchant's length first keeps ("ab", "c") and ("a", "bc") apart.
  const name = `${key.merchantId.length}:${key.merchantId}${key.orderId}`;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ORDER_KEY_LOCK}, hashtext(${name}))`);
  // A new statement: under read committed it sees what the transaction we waited for committed.
  return selectByMerchantOrder(tx, key);
}

/**
 * Creates an order, idempotently on (merchant, orderId): when the orderId exists, nothing is
 * written and the existing order comes back with `created: false` (the caller compares
 * parameters). A collection takes the lowest free deposit address of its family from the pool, or
 * derives the next index with `derive` when the pool is empty; the address is never reused.
 *
 * Kept correct by (b) locks: the (merchant, orderId) advisory lock makes a concurrent duplicate wait
 * and then find the order; the pool's free row is taken `FOR UPDATE SKIP LOCKED` (deposit-addresses.ts),
 * so concurrent orders take different addresses without waiting; the unique index
 * `orders_merchant_order` is the last word (a creation that did not take the lock): its violation
 * rolls everything back, the address included, and the stored order is returned.
 */
export async function createOrder(
  db: PgDb,
  input: {
    order: NewOrder;
    family: Family | null;
    derive: (family: Family, index: number) => string;
    now: number;
  },
): Promise<{ order: Order; created: boolean; paramsKey: string }> {
  const key = { merchantId: input.order.merchantId, orderId: input.order.orderId };
  try {
    return await pgTransaction(db, async (tx) => {
      const existing = await lockMerchantOrderId(tx, key);
      if (existing) return { order: rowToOrder(existing), created: false, paramsKey: existing.paramsKey };
      const id = newId('ord');
      let address = input.order.address;
      if (input.family) {
        address =
          (await takeFreeDepositAddress(tx, input.family, id, input.now)) ??
          (await deriveDepositAddress(tx, input.family, input.derive, input.now, id));
      }
      if (!address) throw new AppError('internal', 'An order needs an address.');
      const order = await insertOrder(tx, { ...input.order, id, address }, input.now);
      return { order, created: true, paramsKey: input.order.paramsKey };
    });
  } catch (error) {
    if (!isUniqueViolation(error, 'orders_merchant_order')) throw error;
    const existing = await selectByMerchantOrder(db, key);
    if (!existing) throw error;
    return { order: rowToOrder(existing), created: false, paramsKey: existing.paramsKey };
  }
}

/**
 * Inserts a new order in INIT inside the caller's transaction and returns it; the caller has
 * checked that its (merchant, orderId) is free (lockMerchantOrderId) and chosen its id and address.
 * A duplicate (merchant, orderId) raises the unique violation `orders_merchant_order`.
 */
export async function insertOrder(
  ex: PgExecutor,
  order: NewOrder & { id: string; address: string; reason?: string | null },
  now: number,
): Promise<Order> {
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
  await ex.insert(orders).values(row);
  return rowToOrder(row);
}
