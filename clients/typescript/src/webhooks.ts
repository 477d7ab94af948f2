import { WebhookVerificationError } from './errors.js';
import { equalBytes, fromBase64, fromHex, hmac, hmacKey } from './hmac.js';
import type { WebhookEvent } from './types.js';

/** Request headers as Node (`req.headers`), fetch (`Headers`) or a plain object carry them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the event's timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Unix milliseconds now (tests). */
  now?: () => number;
}

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** The JSON text of `data` as it stands in the body: between `"data":` and `,"sign":` (sign is last). */
function dataText(raw: string): string | null {
  const start = raw.indexOf('"data":');
  const end = raw.lastIndexOf(',"sign":');
  return start >= 0 && end > start ? raw.slice(start + 7, end) : null;
}

/**
 * Checks that a webhook request comes from Kassa and returns its event. Give it the raw body
 * exactly as received (before any JSON parsing), the request headers and the merchant's webhook
 * secret (the 64-character text, used as is). Every signature the request carries must hold:
 * the Standard Webhooks header (`webhook-signature: v1,<base64 HMAC of "id.timestamp.body">`,
 * any of its space-separated entries) and the body's `sign` (hex HMAC of the JSON text of `data`);
 * at least one must be present. The timestamp must be within `toleranceSeconds` of now, which stops
 * a captured request from being replayed later (Kassa signs each attempt with its own time).
 * Throws {@link WebhookVerificationError}. Dedupe the result on `eventId`.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const raw = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const key = await hmacKey(secret);
  let event: WebhookEvent;
  try {
    event = JSON.parse(raw) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  if (!event || typeof event !== 'object' || typeof event.eventId !== 'string') {
    throw new WebhookVerificationError('the body is not a Kassa event');
  }
  const signature = header(headers, 'webhook-signature');
  const id = header(headers, 'webhook-id');
  const stamp = header(headers, 'webhook-timestamp');
  let verified = false;
  if (signature !== null) {
    if (id === null || stamp === null)
      throw new WebhookVerificationError('webhook-id or webhook-timestamp is missing');
    if (id !== event.eventId) throw new WebhookVerificationError('webhook-id is not the body’s eventId');
    const expected = await hmac(key, `${id}.${stamp}.${raw}`);
    const ok = signature
      .split(' ')
      .filter((s) => s.startsWith('v1,'))
      .some((s) => {
        const given = fromBase64(s.slice(3));
        return given !== null && equalBytes(given, expected);
      });
    if (!ok) throw new WebhookVerificationError('webhook-signature does not match');
    checkTime(Number(stamp), options);
    verified = true;
  }
  if (typeof event.sign === 'string') {
    const text = dataText(raw);
    const given = fromHex(event.sign);
    if (text === null || given === null || !equalBytes(given, await hmac(key, text))) {
      throw new WebhookVerificationError('sign does not match');
    }
    checkTime(event.timestamp, options);
    verified = true;
  }
  if (!verified) throw new WebhookVerificationError('the request carries no signature');
  return event;
}

function checkTime(seconds: number, options: VerifyWebhookOptions): void {
  const now = (options.now ?? Date.now)() / 1000;
  const tolerance = options.toleranceSeconds ?? 300;
  if (!Number.isFinite(seconds) || Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError(`the timestamp is more than ${tolerance} s away from now`);
  }
}
