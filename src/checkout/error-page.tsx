import type { Strings } from './i18n/en.ts';
import { CHECKOUT_CSS } from './styles.ts';

/** Which error the customer sees: the link is wrong, names nothing, is used too fast, or we failed. */
export type CheckoutErrorKind = 'invalid' | 'not_found' | 'busy' | 'internal';

/**
 * The plain page for a checkout link that cannot be shown. It says what to do next and nothing
 * about any order (not even the orderId from the link), and it has no script.
 */
export function CheckoutErrorPage(props: { kind: CheckoutErrorKind; strings: Strings; nonce: string }) {
  const t = props.strings;
  const message = {
    invalid: t.errorInvalid,
    not_found: t.errorNotFound,
    busy: t.errorBusy,
    internal: t.errorInternal,
  }[props.kind];
  return (
    <html lang={t.htmlLang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{t.errorTitle}</title>
        <style nonce={props.nonce} dangerouslySetInnerHTML={{ __html: CHECKOUT_CSS }} />
      </head>
      <body>
        <main>
          <div class="card" id="checkout-error" data-kind={props.kind}>
            <section class="status" data-view="failed">
              <h1>{t.errorTitle}</h1>
              <p>{message}</p>
            </section>
            <footer>
              <span>{t.poweredBy}</span>
            </footer>
          </div>
        </main>
      </body>
    </html>
  );
}
