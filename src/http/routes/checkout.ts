import { type Context, Hono } from 'hono';
import { checkoutCsp, checkoutHeaders, newNonce } from '../../checkout/csp.ts';
import type { CheckoutErrorKind } from '../../checkout/error-page.tsx';
import { pickLanguage } from '../../checkout/language.ts';
import { QrCache } from '../../checkout/qr.ts';
import { renderCheckoutError, renderCheckoutPage } from '../../checkout/render.tsx';
import { type CheckoutState, checkoutFacts } from '../../checkout/state.ts';
import type { AppErrorCode } from '../../domain/errors.ts';
import { authenticateOrderQuery } from '../../services/authenticate.ts';
import { getCheckout } from '../../services/get-checkout.ts';
import type { HttpContext } from '../context.ts';
import { asAppError, ok } from '../envelope.ts';
import { ERROR_TABLE } from '../errors.ts';
import { logRefusal } from '../log-refusal.ts';
import { underFailedAuthLimit } from '../middleware/failed-auth.ts';
import { enforceRateLimit } from '../middleware/rate-limit.ts';
import { toPayinOrder } from './order.pay.ts';

/**
 * Admits a checkout request under the client's failed-authentication limit: `sign` is the checkout
 * link's (what `paymentUrl` carries) or the merchant's own HMAC of the orderId (links made before
 * checkout signs existed), then the `pay` limit (2 a second per order by default, with the
 * merchant's override) in a bucket of its own per endpoint, so the page, its polling and the
 * merchant's own /v1/order/pay calls never starve each other.
 */
async function admit(c: Context, ctx: HttpContext, bucket: 'page' | 'state') {
  const admitted = await underFailedAuthLimit(c, ctx, () =>
    authenticateOrderQuery(ctx.directory, {
      orderId: c.req.query('orderId'),
      sign: c.req.query('sign'),
      merchantId: c.req.header('x-merchant-id'),
      accept: ['checkout', 'merchant'],
    }),
  );
  enforceRateLimit(
    ctx,
    'pay',
    `checkout-${bucket}:${admitted.merchant.id}:${admitted.orderId}`,
    admitted.merchant.id,
  );
  return { ...admitted, sign: c.req.query('sign') as string };
}

function errorKind(code: AppErrorCode): CheckoutErrorKind {
  switch (code) {
    case 'order_not_found':
    case 'not_found':
      return 'not_found';
    case 'rate_limited':
    case 'busy':
      return 'busy';
    case 'validation':
    case 'invalid_signature':
      return 'invalid';
    default:
      return 'internal';
  }
}

/**
 * GET /checkout?orderId=…&sign=…[&lang=en|zh]: the hosted checkout page (the `paymentUrl` of a
 * collection). A missing or wrong sign, another merchant's order, a payout or a rate-limited
 * request gets a plain HTML error page with the matching status and no order data.
 * GET /checkout/state?orderId=…&sign=…: R<PayinOrderVo + progress> for the page's polling.
 */
export function checkoutRoute(ctx: HttpContext) {
  const qr = new QrCache();
  const frameAncestors = ctx.deps.config.checkout.frameAncestors;
  const headers = checkoutHeaders(frameAncestors);

  return new Hono()
    .get('/checkout', async (c) => {
      const language = pickLanguage(c.req.query('lang'), c.req.header('accept-language'));
      const nonce = newNonce();
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      try {
        const link = await admit(c, ctx, 'page');
        const checkout = await getCheckout(ctx.deps, link.merchant, link.orderId);
        const state: CheckoutState = { ...toPayinOrder(checkout.order), ...checkoutFacts(checkout) };
        c.header('Content-Security-Policy', checkoutCsp(nonce, frameAncestors));
        return c.html(renderCheckoutPage({ checkout, state, language, nonce, link, qr }));
      } catch (error) {
        const appError = asAppError(error);
        logRefusal(c, ctx.deps.logger, appError, error);
        if (appError.retryAfterSeconds !== undefined)
          c.header('Retry-After', String(appError.retryAfterSeconds));
        c.header('Content-Security-Policy', checkoutCsp(nonce, frameAncestors, false));
        const status = ERROR_TABLE[appError.code].status as 400;
        return c.html(renderCheckoutError(errorKind(appError.code), language, nonce), status);
      }
    })
    .get('/checkout/state', async (c) => {
      c.header('Cache-Control', 'no-store');
      const link = await admit(c, ctx, 'state');
      const checkout = await getCheckout(ctx.deps, link.merchant, link.orderId);
      const state: CheckoutState = { ...toPayinOrder(checkout.order), ...checkoutFacts(checkout) };
      return ok(c, state);
    });
}
