import { familyOf } from '../domain/chains.ts';
import type { Order } from '../domain/order.ts';
import { checkoutSign } from './checkout-link.ts';
import { type Deps, requireKeys } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { assertSameParams, generatedOrderId, paramsKeyOf, validateOrderInput } from './order-input.ts';

/** The interface's PaymentAddress for a collection. */
export interface CollectionCreated {
  address: string;
  amount: string;
  symbol: string;
  chain: string;
  orderId: string;
  uid: string | null;
  expiredTime: number;
  paymentUrl: string;
}

/**
 * The hosted checkout address of an order: `{base_url}/checkout?orderId=…&sign=…`, with the checkout
 * link's sign (checkout-link.ts): it opens this order's page, /v1/order/pay and getOrderStatus, and
 * never the merchant's own queries.
 */
export function paymentUrlFor(deps: Pick<Deps, 'config'>, merchant: Merchant, orderId: string): string {
  const base = deps.config.baseUrl.replace(/\/+$/, '');
  return `${base}/checkout?orderId=${encodeURIComponent(orderId)}&sign=${checkoutSign(merchant, orderId)}`;
}

/**
 * Creates a collection order with a deposit address no other order has had. Idempotent on
 * (merchant, orderId): the same parameters return the existing order; different ones throw 409.
 * Throws 400 validation errors with the interface's messages.
 */
export async function createCollection(
  deps: Deps,
  merchant: Merchant,
  data: Record<string, unknown>,
): Promise<CollectionCreated> {
  const input = await validateOrderInput(deps, merchant.kind, data);
  const keys = requireKeys(deps);
  const now = deps.clock.now();
  const orderId = input.orderId ?? generatedOrderId();
  const paramsKey = paramsKeyOf({
    type: 'COLLECTION',
    chain: input.chain,
    symbol: input.token.symbol,
    amount: input.amountBase.toString(),
    uid: input.uid,
  });
  const result = await deps.db.createOrder({
    order: {
      merchantId: merchant.id,
      orderId,
      uid: input.uid,
      type: 'COLLECTION',
      chain: input.chain,
      symbol: input.token.symbol,
      tokenContract: input.token.contract,
      decimals: input.token.decimals,
      amount: input.amount,
      amountBase: input.amountBase,
      fee: deps.config.orders.handlingFee,
      address: null,
      receiveAddress: null,
      expiresAt: now + deps.config.orders.collectionTtlSeconds * 1000,
      paramsKey,
    },
    family: familyOf(input.chain),
    derive: (family, index) => keys.depositAddress(family, index),
    now,
  });
  if (!result.created) assertSameParams(result.paramsKey, paramsKey);
  if (result.created) {
    deps.logger.info(
      {
        orderId,
        merchantId: merchant.id,
        chain: input.chain,
        symbol: input.token.symbol,
        amount: input.amount,
      },
      'collection created',
    );
  }
  return toCollectionCreated(deps, merchant, result.order);
}

function toCollectionCreated(deps: Deps, merchant: Merchant, order: Order): CollectionCreated {
  return {
    address: order.address,
    amount: order.amount,
    symbol: order.symbol,
    chain: order.chain,
    orderId: order.orderId,
    uid: order.uid,
    expiredTime: Math.floor(order.expiresAt / 1000),
    paymentUrl: paymentUrlFor(deps, merchant, order.orderId),
  };
}
