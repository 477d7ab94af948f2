import { createHmac } from 'node:crypto';

/**
 * What XPay Labs' SDKs do when they sign a request or check a webhook, re-implemented for tests from
 * the documented rules (reference/xpay-behaviour.md §1.4 and §2.2, test/fixtures/xpay/vectors.md)
 * with node:crypto and JSON.parse only, independently of Kassa's code, and checked against the
 * captured vectors (test/xpay/webhooks.test.ts). The SDKs themselves are not installed here.
 */

const hmac = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text, 'utf8').digest('hex');

/** The node SDK's rendering of an object: localeCompare key order, nulls as `null`, JS numbers. */
function nodeRender(data: Record<string, unknown>): string {
  return Object.entries(data)
    .sort((a, b) => a[0].localeCompare(b[0], 'en-US'))
    .map(([key, value]) => {
      if (typeof value === 'object' && value !== null) {
        if (Array.isArray(value))
          return `${key}=[${value
            .map((item) =>
              typeof item === 'object' ? `{${nodeRender(item as Record<string, unknown>)}}` : item,
            )
            .join(',')}]`;
        return `${key}={${nodeRender(value as Record<string, unknown>)}}`;
      }
      return `${key}=${value}`;
    })
    .join(',');
}

/** The node SDK's canonical text of `{data, nonce, [notifyType,] timestamp}`. */
function nodeCanonical(parts: Record<string, unknown>): string {
  return Object.keys(parts)
    .sort()
    .map((k) => `${k}=${parts[k]}`)
    .join('&');
}

/**
 * A POST body as the node SDK's createCollection/createPayout sends it: `{sign, timestamp, nonce,
 * data}`, `sign` = HMAC(apiSecret, `data={…}&nonce=…&timestamp=…`).
 */
export function nodeSdkRequestBody(
  apiSecret: string,
  data: Record<string, unknown>,
  options: { timestamp: number; nonce: string },
): string {
  const sign = hmac(
    apiSecret,
    nodeCanonical({ data: `{${nodeRender(data)}}`, nonce: options.nonce, timestamp: options.timestamp }),
  );
  return JSON.stringify({ sign, timestamp: options.timestamp, nonce: options.nonce, data });
}

/**
 * The Java SDK's signed query (getBalance, getCryptoAddress): `timestamp` (as text), `nonce` and the
 * request's non-null fields as strings, signed as the sorted `k=v&…` of those strings.
 */
export function javaSdkQuery(
  apiSecret: string,
  fields: Record<string, string>,
  options: { timestamp: number; nonce: string },
): string {
  const params: Record<string, string> = {
    ...fields,
    timestamp: String(options.timestamp),
    nonce: options.nonce,
  };
  const text = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return new URLSearchParams({ ...params, sign: hmac(apiSecret, text) }).toString();
}

/**
 * The node SDK's `verifyWebhook(body, signature, timestamp)` at the clock `nowSeconds`: the
 * signature argument (else `body.sign`) must be HMAC(apiSecret, `data={…}&nonce=…&notifyType=…&
 * timestamp=…`) with the data rendered the node way (nulls kept as `k=null`), and the timestamp
 * within 30 s. A body that is not JSON falls back to HMAC(timestamp + body) without a time window.
 */
export function nodeSdkVerifyWebhook(
  apiSecret: string,
  body: string,
  nowSeconds: number,
  signature = '',
  timestamp: string | number = '',
): boolean {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body);
  } catch {
    return hmac(apiSecret, `${timestamp}${body}`) === signature;
  }
  const given = signature || parsed.sign;
  const ts = Number(timestamp || parsed.timestamp);
  if (Math.abs(nowSeconds - ts) > 30) return false;
  const data = (parsed.data || {}) as Record<string, unknown>;
  const expected = hmac(
    apiSecret,
    nodeCanonical({
      data: `{${nodeRender(data)}}`,
      nonce: parsed.nonce,
      notifyType: parsed.notifyType,
      timestamp: ts,
    }),
  );
  return expected === given;
}

/** The node SDK's `parseWebhook(body)`: the five members when verifyWebhook holds, else null. */
export function nodeSdkParseWebhook(
  apiSecret: string,
  body: string,
  nowSeconds: number,
): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(body);
    if (!nodeSdkVerifyWebhook(apiSecret, body, nowSeconds, parsed.sign, parsed.timestamp)) return null;
    const { sign, timestamp, nonce, notifyType, data } = parsed;
    return { sign, timestamp, nonce, notifyType, data };
  } catch {
    return null;
  }
}

/** The webhook types the Java SDK's enum knows; any other makes its verifyWebhook throw. */
export const JAVA_SDK_NOTIFY_TYPES = [
  'ORDER_PENDING',
  'ORDER_PENDING_CONFIRMATION',
  'ORDER_SUCCESS',
  'ORDER_FAILED',
  'ORDER_EXPIRED',
  'COLLECT_PENDING',
  'COLLECT_SUCCESS',
  'COLLECT_FAILED',
];

/** Java's rendering of a map inside `{…}`: nulls dropped, keys by code units, nested maps and lists. */
function javaMap(map: Record<string, unknown>): string {
  return Object.keys(map)
    .filter((k) => map[k] !== null && map[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => {
      const v = map[k];
      if (Array.isArray(v))
        return `${k}=[${v.map((i) => (typeof i === 'object' && i !== null ? `{${javaMap(i as Record<string, unknown>)}}` : String(i))).join(',')}]`;
      if (typeof v === 'object') return `${k}={${javaMap(v as Record<string, unknown>)}}`;
      if (typeof v === 'number' && !Number.isInteger(v))
        throw new Error('this test helper renders only integers (Java would print a double)');
      return `${k}=${v}`;
    })
    .join(',');
}

/**
 * The Java SDK's `verifyWebhook(body, signature, timestamp)` at `nowSeconds` (the XPay server signs
 * the same way): `data`, `nonce`, `notifyType` (which must be one of its enum's, or it throws) and
 * `timestamp` in code-unit order, `data` with nulls dropped; timestamp within 30 s.
 */
export function javaSdkVerifyWebhook(apiSecret: string, body: string, nowSeconds: number): boolean {
  const parsed = JSON.parse(body);
  if (!JAVA_SDK_NOTIFY_TYPES.includes(parsed.notifyType))
    throw new Error(`the Java SDK cannot read notifyType ${parsed.notifyType}`);
  const text = `data={${javaMap(parsed.data ?? {})}}&nonce=${parsed.nonce}&notifyType=${parsed.notifyType}&timestamp=${Number(parsed.timestamp)}`;
  if (Math.abs(nowSeconds - Number(parsed.timestamp)) > 30) return false;
  return hmac(apiSecret, text) === parsed.sign;
}
