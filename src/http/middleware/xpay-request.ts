import type { Context } from 'hono';
import { MESSAGES, validationError } from '../../domain/errors.ts';
import {
  type ExactJson,
  type ExactObject,
  isExactObject,
  parseExactJson,
  withNumbersAsText,
} from '../../lib/exact-json.ts';
import { jsonDepthExceeds } from '../../lib/json-depth.ts';
import {
  consumeXpayNonce,
  verifyXpaySignature,
  XPAY_TEXT,
  xpayMerchantOf,
  xpaySignedNumber,
} from '../../services/authenticate-xpay.ts';
import type { Merchant } from '../../services/merchant-directory.ts';
import type { HttpContext, RateLimitName } from '../context.ts';
import { underFailedAuthLimit } from './failed-auth.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { readBodyText } from './read-body.ts';

/**
 * Admits an XPay-style POST under the client's failed-authentication limit (failed-auth.ts, the
 * same as every signed request): the merchant whose token `X-API-TOKEN` is (before the body is
 * read), a body within `auth.maxBodyBytes` and `auth.maxJsonDepth`, parsed keeping each number as
 * written, XPay's signature over it (either SDK's rendering), then the merchant's rate limit, then
 * the nonce. Returns `data` with each number as the decimal text its signature covered
 * (xpaySignedNumber), or null when the body has no `data` object. A request refused at any step
 * changes nothing.
 */
export function admitXpayPost(
  c: Context,
  ctx: HttpContext,
  limit: RateLimitName,
): Promise<{ merchant: Merchant; data: Record<string, unknown> | null }> {
  return underFailedAuthLimit(c, ctx, async () => {
    const merchant = await xpayMerchantOf(ctx.directory, c.req.header('x-api-token'));
    const { maxBodyBytes, maxJsonDepth } = ctx.deps.config.auth;
    const text = await readBodyText(c, maxBodyBytes);
    if (jsonDepthExceeds(text, maxJsonDepth)) throw validationError(MESSAGES.bodyTooDeep);
    let body: ExactJson;
    try {
      body = parseExactJson(text);
    } catch {
      throw validationError(XPAY_TEXT.jsonParsingFailed);
    }
    if (!isExactObject(body)) throw validationError(XPAY_TEXT.jsonParsingFailed);
    const signed = verifyXpaySignature(ctx.deps, merchant, body, { nodeRule: true });
    enforceRateLimit(ctx, limit, merchant.id, merchant.id);
    await consumeXpayNonce(ctx.deps, merchant, signed);
    c.set('merchantId' as never, merchant.id as never);
    const data = body.data;
    return {
      merchant,
      data: isExactObject(data)
        ? (withNumbersAsText(data, xpaySignedNumber(signed.rule)) as Record<string, unknown>)
        : null,
    };
  });
}

/** The query as XPay's server maps it: one string per name, a list when a name repeats. */
function queryParams(c: Context): ExactObject {
  const out: ExactObject = {};
  for (const [name, values] of Object.entries(c.req.queries()))
    Object.defineProperty(out, name, {
      value: values.length === 1 ? (values[0] as string) : values,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/**
 * Admits an XPay-style GET under the failed-authentication limit: the merchant of `X-API-TOKEN`,
 * then, when `sign` says so, XPay's signature over the query parameters (the server's rule, as the
 * Java SDK signs them) and the nonce; then the merchant's rate limit `limit`.
 * - `always`: the query must be signed (getBalance, getCryptoAddress);
 * - `when-any-param`: signed when it has any parameter, as XPay does for the order status, which
 *   the SDKs call with the token alone;
 * - `when-signed`: only when a `sign` is present (the public token list, which the node SDK filters
 *   unsigned).
 * Returns the merchant and the query's values (first of each).
 */
export function admitXpayQuery(
  c: Context,
  ctx: HttpContext,
  limit: RateLimitName,
  sign: 'always' | 'when-any-param' | 'when-signed',
): Promise<{ merchant: Merchant; query: Record<string, string | undefined> }> {
  return underFailedAuthLimit(c, ctx, async () => {
    const merchant = await xpayMerchantOf(ctx.directory, c.req.header('x-api-token'));
    const params = queryParams(c);
    const signed =
      sign === 'always' ||
      (sign === 'when-any-param' && Object.keys(params).length > 0) ||
      (sign === 'when-signed' && params.sign !== undefined)
        ? verifyXpaySignature(ctx.deps, merchant, params, { nodeRule: false })
        : null;
    enforceRateLimit(ctx, limit, merchant.id, merchant.id);
    if (signed) await consumeXpayNonce(ctx.deps, merchant, signed);
    c.set('merchantId' as never, merchant.id as never);
    const query = Object.fromEntries(
      Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
    ) as Record<string, string | undefined>;
    return { merchant, query };
  });
}
