import { type ExactJson, type ExactObject, isExactObject, JsonNumber } from './exact-json.ts';
import { javaDoubleToString } from './java-double.ts';

/**
 * The two ways XPay Labs' software turns a signed request or webhook into the `k=v` text that is
 * HMAC'd (reference/xpay-behaviour.md §1.3–1.4, reference/xpay-vectors.md). They agree on ordinary
 * input (strings, integers, decimals such as 10.5, no nulls) and differ on the rest:
 *
 * - the XPay server and its Java SDK ({@link xpayJavaCanonical}): every top-level key but `sign`;
 *   nulls inside objects dropped; keys in UTF-16 code-unit order; numbers as Java prints them;
 * - the node SDK ({@link xpayNodeCanonical}): only data/nonce/timestamp (+ notifyType for
 *   webhooks); nulls kept as `k=null`; keys of `data` in `localeCompare` order; numbers as
 *   JavaScript prints them.
 */

/** UTF-16 code-unit order (Java's `String.compareTo`, JavaScript's default sort). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A number as Jackson reads it and Java prints it: integers keep their digits, others are doubles. */
export function javaNumber(n: JsonNumber): string {
  return n.isInteger ? BigInt(n.lexeme).toString() : javaDoubleToString(Number(n.lexeme));
}

/** `String.valueOf` of what Jackson made of a value (lists and maps in Java's own toString). */
function javaToString(v: ExactJson): string {
  if (v === null) return 'null';
  if (v instanceof JsonNumber) return javaNumber(v);
  if (Array.isArray(v)) return `[${v.map(javaToString).join(', ')}]`;
  if (isExactObject(v))
    return `{${Object.entries(v)
      .map(([k, item]) => `${k}=${javaToString(item)}`)
      .join(', ')}}`;
  return String(v);
}

function javaMap(obj: ExactObject): string {
  return Object.keys(obj)
    .filter((k) => obj[k] !== null)
    .sort(byCodeUnits)
    .map((k) => {
      const v = obj[k] as ExactJson;
      if (isExactObject(v)) return `${k}={${javaMap(v)}}`;
      if (Array.isArray(v)) return `${k}=[${javaCollection(v)}]`;
      return `${k}=${javaToString(v)}`;
    })
    .join(',');
}

function javaCollection(items: ExactJson[]): string {
  return items.map((item) => (isExactObject(item) ? `{${javaMap(item)}}` : javaToString(item))).join(',');
}

/**
 * The XPay server's (and Java SDK's) canonical text of a parameter map: the top-level keys of the
 * JSON body, or the query parameters (a repeated one as an array), `sign` left out; keys in
 * code-unit order, `k=v` joined by `&`; a null is `k=`; an object is `k={…}` with its null members
 * dropped, its keys sorted the same way and joined by `,`; numbers as Java prints them.
 */
export function xpayJavaCanonical(params: Readonly<Record<string, ExactJson>>): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign')
    .sort(byCodeUnits)
    .map((k) => {
      const v = params[k] as ExactJson;
      if (v === null) return `${k}=`;
      if (isExactObject(v)) return `${k}={${javaMap(v)}}`;
      return `${k}=${javaToString(v)}`;
    })
    .join('&');
}

const collator = new Intl.Collator('en-US');

/** A number as JavaScript prints it (what the node SDK signs for a number it was given). */
export function jsNumber(n: JsonNumber): string {
  return String(Number(n.lexeme));
}

/** What the node SDK's `${value}` gives for a scalar of the parsed JSON. */
function jsText(v: ExactJson): string {
  return v instanceof JsonNumber ? jsNumber(v) : String(v);
}

class SdkWouldThrow extends Error {}

function nodeData(value: ExactJson): string {
  // Object.entries of an array gives its indexes as keys: nested arrays render as {0=…,1=…}
  const entries: [string, ExactJson][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : isExactObject(value)
      ? Object.entries(value)
      : (() => {
          throw new SdkWouldThrow();
        })();
  return entries
    .sort((a, b) => collator.compare(a[0], b[0]))
    .map(([k, v]) => {
      if (Array.isArray(v))
        return `${k}=[${v
          .map((item) =>
            item !== null && typeof item === 'object' && !(item instanceof JsonNumber)
              ? `{${nodeData(item)}}`
              : item === null
                ? (() => {
                    // the SDK takes null for an object and fails on Object.entries(null)
                    throw new SdkWouldThrow();
                  })()
                : jsText(item),
          )
          .join(',')}]`;
      if (isExactObject(v)) return `${k}={${nodeData(v)}}`;
      return `${k}=${v === null ? 'null' : jsText(v)}`;
    })
    .join(',');
}

/**
 * The node SDK's canonical text: `data={…}&nonce=…[&notifyType=…]&timestamp=…` where `data` is
 * rendered with `localeCompare` key order (en-US), nulls as `k=null` and numbers as JavaScript
 * prints them, and nothing else of the body counts. A null or missing `data` counts as `{}` (the
 * SDK's `data || {}`). Null when the SDK could not have produced a signature for this input (a
 * `data` that is not an object, or an array holding null: it throws).
 */
export function xpayNodeCanonical(parts: {
  data: ExactJson | undefined;
  nonce: ExactJson | undefined;
  timestamp: ExactJson | undefined;
  notifyType?: ExactJson | undefined;
}): string | null {
  const given = parts.data ?? {};
  if (!isExactObject(given)) return null;
  let data: string;
  try {
    data = nodeData(given);
  } catch (error) {
    if (error instanceof SdkWouldThrow) return null;
    throw error;
  }
  const top: [string, string][] = [
    ['data', `{${data}}`],
    ['nonce', parts.nonce === undefined ? 'undefined' : jsText(parts.nonce)],
    ['timestamp', parts.timestamp === undefined ? 'undefined' : jsText(parts.timestamp)],
  ];
  if (parts.notifyType !== undefined) top.push(['notifyType', jsText(parts.notifyType)]);
  return top
    .sort((a, b) => byCodeUnits(a[0], b[0]))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}
