import { createHmac } from 'node:crypto';
import { hmacHex } from '../lib/hmac.ts';

/** Domain separation: the checkout link's key is the merchant token's HMAC of this label. */
const LABEL = 'kassa/checkout-link/v1';

/**
 * The key of a merchant's checkout links, derived from its token. A link's `sign` made with it can
 * never be a merchant sign (HMAC under the token itself) for any orderId, so a customer holding a
 * link cannot query `/v1/order/status` with it, for this order or any other.
 */
export function checkoutLinkKey(token: string): Buffer {
  return createHmac('sha256', token).update(LABEL).digest();
}

/** The `sign` of an order's checkout link: hex HMAC-SHA256(checkout link key, orderId). */
export function checkoutSign(merchant: { checkoutKey: Buffer }, orderId: string): string {
  return hmacHex(merchant.checkoutKey, orderId);
}
