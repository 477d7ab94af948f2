import { createHmac, randomUUID } from 'node:crypto';

/**
 * How a merchant's server signs requests, written independently of Kassa's code (node:crypto only),
 * the way the README tells merchants to do it.
 */
export function signData(token: string, dataText: string): string {
  return createHmac('sha256', token).update(dataText, 'utf8').digest('hex');
}

/** A signed POST envelope as JSON text; `dataText` lets a test sign exact bytes it chooses. */
export function envelope(
  token: string,
  data: unknown,
  options: { timestamp?: number; nonce?: string; dataText?: string; sign?: string } = {},
): string {
  const dataText = options.dataText ?? JSON.stringify(data);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = options.nonce ?? randomUUID();
  const sign = options.sign ?? signData(token, dataText);
  return `{"sign":"${sign}","timestamp":${timestamp},"nonce":${JSON.stringify(nonce)},"data":${dataText}}`;
}

/**
 * The `sign` of a checkout link (`paymentUrl`), as the README describes it: the HMAC of the orderId
 * under a key derived from the token, HMAC-SHA256(token, "kassa/checkout-link/v1").
 */
export function checkoutLinkSign(token: string, orderId: string): string {
  const key = createHmac('sha256', token).update('kassa/checkout-link/v1', 'utf8').digest();
  return createHmac('sha256', key).update(orderId, 'utf8').digest('hex');
}
