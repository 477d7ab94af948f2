import type { Checkout } from '../services/get-checkout.ts';
import { type CheckoutErrorKind, CheckoutErrorPage } from './error-page.tsx';
import { LANGUAGES, type Language, stringsFor } from './language.ts';
import { CheckoutPage } from './page.tsx';
import type { QrCache } from './qr.ts';
import { type CheckoutState, viewOf } from './state.ts';
import { walletUri } from './wallet-uri.ts';

function toHtml(node: { toString(): unknown }): string {
  const out = node.toString();
  if (typeof out !== 'string' && !(out instanceof String))
    throw new Error('checkout pages render synchronously');
  return `<!DOCTYPE html>${out}`;
}

/** The link's own query (orderId and sign), plus `lang` when given. */
function query(link: { orderId: string; sign: string }, lang?: Language): string {
  const q = new URLSearchParams({ orderId: link.orderId, sign: link.sign });
  if (lang) q.set('lang', lang);
  return q.toString();
}

/**
 * The checkout page of one collection as an HTML document. `link` is the admitted orderId and sign
 * (reused for the polling URL and the language links); the QR comes from `qr`, drawn once per order.
 */
export function renderCheckoutPage(input: {
  checkout: Checkout;
  state: CheckoutState;
  language: Language;
  nonce: string;
  link: { orderId: string; sign: string };
  qr: QrCache;
}): string {
  const { checkout, state, language, link } = input;
  const { order } = checkout;
  const uri = walletUri(order, checkout.chainId);
  const languageLinks = Object.fromEntries(
    (Object.keys(LANGUAGES) as Language[]).map((l) => [l, `?${query(link, l)}`]),
  ) as Record<Language, string>;
  return toHtml(
    <CheckoutPage
      state={state}
      view={viewOf(order.status, order.expiresAt, checkout.now)}
      strings={stringsFor(language)}
      language={language}
      nonce={input.nonce}
      // Relative to /checkout, so the page keeps working behind a reverse proxy's path prefix.
      stateUrl={`checkout/state?${query(link)}`}
      languageLinks={languageLinks}
      merchantName={checkout.merchantName}
      network={checkout.network}
      tokenContract={order.tokenContract}
      qrSvg={input.qr.svg(order.id, uri.uri)}
      qrCarriesAmount={uri.carriesAmount}
    />,
  );
}

/** The plain error page (no order data, no script) as an HTML document. */
export function renderCheckoutError(kind: CheckoutErrorKind, language: Language, nonce: string): string {
  return toHtml(<CheckoutErrorPage kind={kind} strings={stringsFor(language)} nonce={nonce} />);
}
