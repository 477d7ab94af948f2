import { hmacBase64, hmacHex } from '../lib/hmac.ts';

/** A webhook request ready to send: the exact body bytes and the headers that sign them. */
export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/** What one delivery attempt of an event carries. */
export interface WebhookMessage {
  eventId: string;
  notifyType: string;
  /** The JSON text of `data` exactly as stored; it is placed in the body byte for byte. */
  dataText: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** New for every attempt. */
  nonce: string;
}

/**
 * Builds the body `{eventId, notifyType, timestamp, nonce, data, sign}` and its headers, keyed by the
 * merchant's webhook secret (the 64-character text as printed, used as UTF-8 bytes):
 * - `sign` = hex HMAC-SHA256 of the JSON text of `data`, which appears unchanged inside the body;
 * - Standard Webhooks: `webhook-id` = eventId, `webhook-timestamp` = unix seconds,
 *   `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`.
 * Pure: the same inputs give the same bytes. Throws only if `dataText` is not JSON text.
 */
export function signWebhook(message: WebhookMessage, secret: string): SignedWebhook {
  JSON.parse(message.dataText);
  const sign = hmacHex(secret, message.dataText);
  const body =
    `{"eventId":${JSON.stringify(message.eventId)},"notifyType":${JSON.stringify(message.notifyType)},` +
    `"timestamp":${message.timestamp},"nonce":${JSON.stringify(message.nonce)},` +
    `"data":${message.dataText},"sign":"${sign}"}`;
  return { body, headers: webhookHeaders(message.eventId, message.timestamp, body, secret) };
}

/**
 * The headers of a webhook request with `body`: JSON content type, Kassa's user agent, and the
 * Standard Webhooks `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` + base64
 * HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed by the webhook secret).
 */
export function webhookHeaders(
  eventId: string,
  timestamp: number,
  body: string,
  secret: string,
): Record<string, string> {
  const ts = String(timestamp);
  return {
    'content-type': 'application/json',
    'user-agent': 'Kassa-Webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${hmacBase64(secret, `${eventId}.${ts}.${body}`)}`,
  };
}
