import { withoutNulls } from '../domain/xpay-notify-order.ts';
import { JsonNumber, parseExactJson } from '../lib/exact-json.ts';
import { hmacHex } from '../lib/hmac.ts';
import { xpayJavaCanonical } from '../lib/xpay-canonical.ts';
import { type SignedWebhook, webhookHeaders } from './sign-webhook.ts';

/** What one XPay-style delivery attempt carries. */
export interface XpayWebhookMessage {
  eventId: string;
  notifyType: string;
  /** The event's data in XPay's shape (xpay-notify-order.ts); null members are left out of the body. */
  data: unknown;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** New for every attempt. */
  nonce: string;
}

/**
 * Builds the webhook a merchant in XPay mode gets, as XPay sends it (reference/xpay-behaviour.md
 * §2): the body `{sign, timestamp, nonce, notifyType, data}` in XPay's member order, `data` with
 * every null member left out, and `sign` = hex HMAC-SHA256, keyed by the webhook secret, of XPay's
 * canonical text `data={…}&nonce=…&notifyType=…&timestamp=…`. Without nulls, and with only strings
 * and integers in `data`, the node SDK's rule gives the same text as the Java SDK's and the XPay
 * server's, so `verifyWebhook`/`parseWebhook` of both SDKs accept it. Kassa's extras stay out of the
 * body (the Java rule would sign any extra member): the event id travels in `webhook-id`, with the
 * Standard Webhooks signature headers as for every merchant. Pure; throws only if `data` is not JSON.
 */
export function signXpayWebhook(message: XpayWebhookMessage, secret: string): SignedWebhook {
  const dataText = JSON.stringify(withoutNulls(message.data));
  const canonical = xpayJavaCanonical({
    data: parseExactJson(dataText),
    nonce: message.nonce,
    notifyType: message.notifyType,
    timestamp: new JsonNumber(String(message.timestamp)),
  });
  const sign = hmacHex(secret, canonical);
  const body =
    `{"sign":"${sign}","timestamp":${message.timestamp},"nonce":${JSON.stringify(message.nonce)},` +
    `"notifyType":${JSON.stringify(message.notifyType)},"data":${dataText}}`;
  return { body, headers: webhookHeaders(message.eventId, message.timestamp, body, secret) };
}
