import type { Context } from 'hono';
import { type AppError, type AppErrorCode, MESSAGES } from '../domain/errors.ts';
import { ERROR_TABLE } from './errors.ts';

/** What XPay answers on success: RuoYi's "operation successful" (reference/xpay-behaviour.md §9). */
export const XPAY_SUCCESS_MSG = '操作成功';

/** Checkout endpoints: customer-facing, XPay checks no token there either; always the interface's. */
const CUSTOMER_PATHS = new Set(['/v1/order/pay', '/v1/order/getOrderStatus']);
/** Endpoints that exist only in XPay's form: a request without X-API-TOKEN is refused XPay's way. */
const XPAY_ONLY_GETS = new Set(['/v1/merchant/getBalance', '/v1/merchant/getCryptoAddress']);

/**
 * Whether a request is answered XPay's way: an API request (`/v1/…`) carrying `X-API-TOKEN`, except
 * the checkout endpoints, plus the GETs only XPay has (`/v1/merchant/getBalance`,
 * `/v1/merchant/getCryptoAddress`). Everything else is the interface's, for every merchant.
 */
export function isXpayRequest(c: Context): boolean {
  const known = c.get('xpay' as never) as boolean | undefined;
  if (known !== undefined) return known;
  const path = c.req.path;
  const xpay =
    path.startsWith('/v1/') &&
    ((c.req.header('x-api-token') !== undefined && !CUSTOMER_PATHS.has(path)) ||
      (c.req.method === 'GET' && XPAY_ONLY_GETS.has(path)));
  c.set('xpay' as never, xpay as never);
  return xpay;
}

/** XPay's texts for Kassa's refusals where XPay has its own. */
const XPAY_MESSAGES: Partial<Record<AppErrorCode, string>> = {
  order_not_found: 'Order not found',
  order_conflict: 'Order ID already exists.',
  rate_limited: 'Visit too frequently, please try again later',
};
const XPAY_VALIDATION: Record<string, string> = {
  [MESSAGES.symbolUnsupported]: 'Unsupported symbol or chain',
  [MESSAGES.chainUnsupported]: 'Unsupported symbol or chain',
  [MESSAGES.bodyNotJson]: 'JSON parsing failed',
};
/** Refusals whose detail is the text to show (set by the code that refused, never an internal). */
const DETAILED: ReadonlySet<AppErrorCode> = new Set([
  'invalid_signature',
  'timestamp_window',
  'nonce_reused',
  'order_not_found',
]);

/** The R envelope of an XPay success: HTTP 200, code 200. */
export function xpayOk<T>(c: Context, data: T) {
  return c.json({ code: 200, msg: XPAY_SUCCESS_MSG, data });
}

/**
 * An XPay refusal: HTTP 200 whatever went wrong (XPay's SDKs read `code`, and throw on any other
 * status), `code` 500 (404 for an unknown path, 405 for a wrong method), `msg` XPay's text where
 * XPay has one, otherwise the interface's; `data` null. A rate-limit refusal still carries
 * Retry-After.
 */
export function xpayFail(c: Context, error: AppError) {
  const entry = ERROR_TABLE[error.code];
  let msg = entry.detail || DETAILED.has(error.code) ? (error.detail ?? entry.msg) : entry.msg;
  if (error.code === 'validation') msg = XPAY_VALIDATION[msg] ?? msg;
  else if (!error.detail || !DETAILED.has(error.code)) msg = XPAY_MESSAGES[error.code] ?? msg;
  const code = error.code === 'not_found' ? 404 : error.code === 'method_not_allowed' ? 405 : 500;
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  return c.json({ code, msg, data: null }, 200);
}
