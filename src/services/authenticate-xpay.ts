import { AppError, validationError } from '../domain/errors.ts';
import { type ExactJson, type ExactObject, JsonNumber, plainDecimal } from '../lib/exact-json.ts';
import { hmacHexEquals } from '../lib/hmac.ts';
import { javaNumber, jsNumber, xpayJavaCanonical, xpayNodeCanonical } from '../lib/xpay-canonical.ts';
import { consumeRequestNonce } from './authenticate.ts';
import type { Deps } from './deps.ts';
import type { Merchant, MerchantDirectory } from './merchant-directory.ts';

/** XPay's own texts for refused requests (reference/xpay-behaviour.md §1.1, §1.3, §9). */
export const XPAY_TEXT = {
  permissionDenied: 'Permission denied',
  invalidPermissions: 'Invalid permissions',
  timestampNull: 'timestamp is null',
  nonceNull: 'nonce is null',
  signNull: 'sign is null',
  jsonParsingFailed: 'JSON parsing failed',
  timestampNotSeconds: 'The timestamp must be a whole number of seconds.',
  nonceTooLong: 'The nonce must be at most 128 characters.',
} as const;

const HEX_SIGN = /^[0-9a-fA-F]{64}$/;

/**
 * The merchant an `X-API-TOKEN` header names: an active merchant in XPay mode whose token it is
 * (one map lookup, a constant-time comparison; see MerchantDirectory.byToken). A missing header is
 * refused with XPay's `Permission denied`, any other token with `Invalid permissions`; both count
 * as failed authentications.
 */
export async function xpayMerchantOf(
  directory: MerchantDirectory,
  token: string | undefined,
): Promise<Merchant> {
  if (!token) throw new AppError('invalid_signature', XPAY_TEXT.permissionDenied);
  const merchant = await directory.byToken(token);
  if (!merchant) throw new AppError('invalid_signature', XPAY_TEXT.invalidPermissions);
  return merchant;
}

/** The timestamp and nonce of a request whose XPay signature verified, and which rule it was. */
export interface XpaySigned {
  timestamp: number;
  nonce: string;
  /** `java`: the XPay server's and Java SDK's rule; `node`: the node SDK's (and not the other). */
  rule: 'java' | 'node';
}

/** A scalar member as the text XPay's code would see (a string, or a number's lexeme). */
function scalarText(v: ExactJson | undefined): string | null {
  if (typeof v === 'string') return v;
  if (v instanceof JsonNumber) return v.lexeme;
  return null;
}

/**
 * Checks an XPay-signed request of `merchant`: the parameter map (a POST body's top-level members,
 * or a GET's query parameters) must hold `timestamp` (whole seconds, within
 * `auth.timestampWindowSeconds` of the clock, the same window as every signed request), `nonce`
 * and `sign`; `sign` must be the hex HMAC-SHA256, keyed by the merchant's webhook secret, of the
 * map's canonical text by the XPay server's (and Java SDK's) rule, or, for a POST (`nodeRule`), by
 * the node SDK's rule, which differs on nulls, key order and some numbers. Says which rule held:
 * a number means what that rule signed for it (xpaySignedNumber). Refusals carry XPay's texts. Does
 * not consume the nonce (consumeXpayNonce, once the request is admitted).
 */
export function verifyXpaySignature(
  deps: Pick<Deps, 'config' | 'clock'>,
  merchant: Merchant,
  params: Readonly<ExactObject>,
  options: { nodeRule: boolean },
): XpaySigned {
  const tsText = scalarText(params.timestamp);
  if (tsText === null || tsText === '') throw validationError(XPAY_TEXT.timestampNull);
  if (!/^\d{1,15}$/.test(tsText)) throw validationError(XPAY_TEXT.timestampNotSeconds);
  const timestamp = Number(tsText);
  const nonce = scalarText(params.nonce);
  if (nonce === null || nonce === '') throw validationError(XPAY_TEXT.nonceNull);
  if (nonce.length > 128) throw validationError(XPAY_TEXT.nonceTooLong);
  const sign = params.sign;
  if (typeof sign !== 'string' || sign === '') throw validationError(XPAY_TEXT.signNull);
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  if (Math.abs(deps.clock.now() - timestamp * 1000) > deps.config.auth.timestampWindowSeconds * 1000)
    throw new AppError('timestamp_window', `The difference in timestamps ${nowSeconds - timestamp}`);
  const refused = new AppError(
    'invalid_signature',
    HEX_SIGN.test(sign) ? `Signature error ${sign}` : 'Signature error',
  );
  if (!HEX_SIGN.test(sign)) throw refused;
  const java = xpayJavaCanonical(params);
  if (hmacHexEquals(merchant.webhookSecret, java, sign)) return { timestamp, nonce, rule: 'java' };
  const node = options.nodeRule
    ? xpayNodeCanonical({ data: params.data, nonce: params.nonce, timestamp: params.timestamp })
    : null;
  if (node !== null && node !== java && hmacHexEquals(merchant.webhookSecret, node, sign))
    return { timestamp, nonce, rule: 'node' };
  throw refused;
}

/**
 * The text of a number of a verified request as its signature covered it, in plain decimals: what
 * Java prints for it under the Java rule (every digit of an integer; a decimal as the double
 * nearest to it), what JavaScript prints under the node rule. Two lexemes of one double (`0.1` and
 * `0.100000000000000001`) sign alike, so the amount used must be the signed one, never the lexeme:
 * a changed body can then not change the amount without breaking the signature.
 */
export function xpaySignedNumber(rule: XpaySigned['rule']): (n: JsonNumber) => string {
  return (n) => plainDecimal(rule === 'java' ? javaNumber(n) : jsNumber(n));
}

/**
 * Records the nonce of an admitted XPay request for its merchant (the same table and window as
 * every signed request: a nonce is good once per merchant, whichever way it was signed). A repeat
 * is refused with XPay's replay text.
 */
export async function consumeXpayNonce(
  deps: Pick<Deps, 'config' | 'db'>,
  merchant: Merchant,
  signed: XpaySigned,
): Promise<void> {
  await consumeRequestNonce(
    deps,
    merchant,
    signed,
    `appId: , timestamp: ${signed.timestamp}, nonce: ${signed.nonce}`,
  );
}
