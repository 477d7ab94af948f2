import { applyOrderTransitions, findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import type { Order, OrderTransaction } from '../../src/domain/order.ts';
import { type OrderEvent, transition } from '../../src/domain/order-state.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';

/** A collection created through the signed API, with the parts of its paymentUrl a test needs. */
export interface CheckoutOrder {
  merchant: MerchantCreated;
  orderId: string;
  address: string;
  expiredTime: number;
  /** The full paymentUrl as createCollection returned it. */
  paymentUrl: string;
  /** Its path and query (`/checkout?orderId=…&sign=…`), to request in process or on a served port. */
  path: string;
}

/** Creates a collection through POST /v1/order/createCollection, as a merchant would. */
export async function createCheckoutOrder(
  h: Harness,
  merchant: MerchantCreated,
  data: { chain: string; symbol: string; amount: string; orderId: string },
): Promise<CheckoutOrder> {
  const res = await h.post('/v1/order/createCollection', merchant, data);
  const r = (await res.json()) as {
    code: number;
    msg: string;
    data: { address: string; expiredTime: number; paymentUrl: string };
  };
  if (r.code !== 200) throw new Error(`createCollection failed: ${r.code} ${r.msg}`);
  const url = new URL(r.data.paymentUrl);
  return {
    merchant,
    orderId: data.orderId,
    address: r.data.address,
    expiredTime: r.data.expiredTime,
    paymentUrl: r.data.paymentUrl,
    path: `${url.pathname}${url.search}`,
  };
}

/** The order as stored now. */
export function readOrder(h: Harness, o: Pick<CheckoutOrder, 'merchant' | 'orderId'>): Order {
  const order = findOrderByMerchantOrderId(h.db, o.merchant.merchantId, o.orderId);
  if (!order) throw new Error(`no order ${o.orderId}`);
  return order;
}

/** A transfer into the order's deposit address, as a scanner would record it. */
export function transferTo(
  order: Order,
  amountBase: bigint,
  facts: Partial<OrderTransaction> = {},
): OrderTransaction {
  return {
    chain: order.chain,
    symbol: order.symbol,
    txid: `0x${'ab'.repeat(32)}`,
    from: order.address,
    to: order.address,
    amountBase,
    blockNum: 100,
    confirmedNum: 1,
    status: 'PENDING',
    timestamp: Math.floor(order.createdAt / 1000),
    ...facts,
  };
}

/**
 * Moves an order on by one event the way the worker does: the next status from `transition()`,
 * the changed facts, the webhook event beside it, all through applyOrderTransitions.
 */
export function moveOrder(
  h: Harness,
  o: Pick<CheckoutOrder, 'merchant' | 'orderId'>,
  event: OrderEvent,
  facts: Partial<Pick<Order, 'reason' | 'receivedBase' | 'actualAmountBase' | 'transaction'>> = {},
): Order {
  const order = readOrder(h, o);
  const [moved] = applyOrderTransitions(
    h.db,
    [{ order, patch: { status: transition(order.type, order.status, event), ...facts } }],
    h.clock.now(),
  );
  return moved as Order;
}

/** Pays an order in full and settles it: covered (1 confirmation), then final with `confirmations`. */
export function payInFull(h: Harness, o: CheckoutOrder, txid: string, confirmations = 20): Order {
  const order = readOrder(h, o);
  moveOrder(h, o, 'covered_seen', {
    receivedBase: order.amountBase,
    transaction: transferTo(order, order.amountBase, { txid, confirmedNum: 1 }),
  });
  return moveOrder(h, o, 'settled', {
    actualAmountBase: order.amountBase,
    transaction: transferTo(order, order.amountBase, {
      txid,
      confirmedNum: confirmations,
      status: 'SUCCESS',
    }),
  });
}

/** The checkout route tests' starting point: a fresh harness, a V3 merchant and its open 12 USDC collection C-1 on ETH. */
export async function openCheckout(): Promise<{ h: Harness; m: MerchantCreated; o: CheckoutOrder }> {
  const h = await makeHarness();
  const m = await h.merchant('V3');
  const o = await createCheckoutOrder(h, m, { chain: 'ETH', symbol: 'USDC', amount: '12', orderId: 'C-1' });
  return { h, m, o };
}

/** Moves the clock past the checkout rate-limit window, so the next test request is admitted. */
export const nextSecond = (h: Harness) => h.clock.advance(1000);
