import type { Child } from 'hono/jsx';
import type { Chain } from '../domain/chains.ts';
import { CHECKOUT_SCRIPT } from './client-script.ts';
import type { Strings } from './i18n/en.ts';
import { fill, LANGUAGES, type Language } from './language.ts';
import type { CheckoutState, CheckoutView } from './state.ts';
import { CHECKOUT_CSS } from './styles.ts';

/** What the page is drawn from: the order's state and everything around it. */
export interface CheckoutPageProps {
  state: CheckoutState;
  view: CheckoutView;
  strings: Strings;
  language: Language;
  nonce: string;
  /** Relative URL of GET /checkout/state for this order (carries orderId and sign). */
  stateUrl: string;
  /** Link to this page in each language (query only, so it works behind any path prefix). */
  languageLinks: Record<Language, string>;
  merchantName: string | null;
  network: 'mainnet' | 'testnet';
  tokenContract: string | null;
  qrSvg: string;
  qrCarriesAmount: boolean;
}

/** Splits a `{slot}` template into text and the nodes given for its slots. */
function slots(template: string, values: Record<string, Child>): Child[] {
  return template.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in values ? values[name] : part;
  });
}

/** The state-dependent panels; all are rendered, the current one visible, so the script only swaps them. */
function Panels({ state, view, strings: t }: Pick<CheckoutPageProps, 'state' | 'view' | 'strings'>) {
  const received = <span data-f="received">{state.received}</span>;
  const confirmations = <span data-f="confirmations">{state.confirmations}</span>;
  const confirmLine =
    state.confirmationsRequired === null
      ? slots(t.confirmationsFinality, { n: confirmations })
      : slots(t.confirmationsOf, { n: confirmations, required: String(state.confirmationsRequired) });
  const nonzero = (v: string) => /[1-9]/.test(v);
  const sym = state.symbol;
  return (
    <section class="status" data-view={view}>
      <div data-panel="waiting" hidden={view !== 'waiting'}>
        <h2 id="title-waiting">{t.waitingTitle}</h2>
        <p>{t.waitingBody}</p>
      </div>
      <div data-panel="seen" hidden={view !== 'seen'}>
        <h2 id="title-seen">{t.seenTitle}</h2>
        <p>{slots(t.seenReceived, { received, amount: state.amount, symbol: sym })}</p>
        <p data-if="remaining" hidden={!nonzero(state.remaining)}>
          <strong>
            {slots(t.seenRemaining, {
              remaining: <span data-f="remaining">{state.remaining}</span>,
              symbol: sym,
            })}
          </strong>
        </p>
        <p>{confirmLine}</p>
      </div>
      <div data-panel="confirming" hidden={view !== 'confirming'}>
        <h2 id="title-confirming">{t.confirmingTitle}</h2>
        <p>{slots(t.confirmingBody, { received, symbol: sym })}</p>
        <p>{confirmLine}</p>
      </div>
      <div data-panel="paid" hidden={view !== 'paid'}>
        <h2 id="title-paid">{t.paidTitle}</h2>
        <p>{slots(t.paidBody, { received, symbol: sym })}</p>
        <p>
          {t.txLabel}:{' '}
          <a
            class="mono"
            data-f="txid"
            href={state.explorerUrl ?? undefined}
            target="_blank"
            rel="noopener noreferrer"
          >
            {state.txid ?? ''}
          </a>
        </p>
      </div>
      <div data-panel="expired" hidden={view !== 'expired'}>
        <h2 id="title-expired">{t.expiredTitle}</h2>
        <p>{t.expiredBody}</p>
        <p data-if="received" hidden={!nonzero(state.received)}>
          {slots(t.expiredReceived, { received, symbol: sym })}
        </p>
      </div>
      <div data-panel="failed" hidden={view !== 'failed'}>
        <h2 id="title-failed">{t.failedTitle}</h2>
        <p>{t.failedBody}</p>
        <p data-if="reason" hidden={!state.reason}>
          {t.reasonLabel}: <span data-f="reason">{state.reason ?? ''}</span>
        </p>
      </div>
    </section>
  );
}

/** Minutes and seconds (h:mm:ss past an hour) until `expiredTime`, as the script shows them. */
export function formatLeft(expiredTime: number, now: number): string {
  const left = Math.max(0, Math.floor((expiredTime * 1000 - now) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${h ? `${h}:${pad(m)}` : m}:${pad(left % 60)}`;
}

/**
 * The hosted checkout page for one collection. Complete without JavaScript for the state it was
 * rendered in (and reloads itself every 10 s while the order is open); the inline script makes it
 * live. Values reach the script through data attributes, which the JSX renderer escapes.
 */
export function CheckoutPage(p: CheckoutPageProps) {
  const { state, view, strings: t } = p;
  const chain = state.chain as Chain;
  const networkName = (p.network === 'testnet' ? t.testnets : t.networks)[chain];
  const token = p.tokenContract
    ? fill(t.tokenContract, { symbol: state.symbol, standard: t.standards[chain] })
    : fill(t.tokenNative, { symbol: state.symbol });
  const payable = view === 'waiting' || view === 'seen';
  const title = fill(t.pageTitle, { amount: state.amount, symbol: state.symbol });
  return (
    <html lang={t.htmlLang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        {state.final ? null : (
          <noscript>
            <meta http-equiv="refresh" content="10" />
          </noscript>
        )}
        <title>{title}</title>
        <style nonce={p.nonce} dangerouslySetInnerHTML={{ __html: CHECKOUT_CSS }} />
      </head>
      <body>
        <main>
          <div
            id="checkout"
            class="card"
            data-state={JSON.stringify(state)}
            data-state-url={p.stateUrl}
            data-view={view}
            data-status={state.status}
            data-copy={t.copy}
            data-copied={t.copied}
            data-copy-failed={t.copyFailed}
            data-t5={t.timeAnnounce5}
            data-t1={t.timeAnnounce1}
          >
            <header>
              <div>
                <p class="eyebrow">
                  {p.merchantName ? fill(t.payTo, { merchant: p.merchantName }) : t.eyebrow}
                </p>
                <h1>
                  {state.amount} {state.symbol}
                </h1>
              </div>
              <nav aria-label={t.languageSwitch}>
                {(Object.keys(LANGUAGES) as Language[]).map((lang) => (
                  <a
                    href={p.languageLinks[lang]}
                    lang={LANGUAGES[lang].htmlLang}
                    hreflang={LANGUAGES[lang].htmlLang}
                    aria-current={lang === p.language ? 'true' : undefined}
                  >
                    {LANGUAGES[lang].languageName}
                  </a>
                ))}
              </nav>
            </header>

            <Panels state={state} view={view} strings={t} />
            <p id="offline" class="offline" role="alert" hidden>
              {t.offline}
            </p>

            <div id="pay" hidden={!payable}>
              <p class="warn" id="warning">
                <strong>{fill(t.warning, { symbol: state.symbol, network: networkName })}</strong>
              </p>
              <dl>
                <dt id="amount-label">{t.amountLabel}</dt>
                <dd class="line">
                  <span class="big">
                    <span id="amount">{state.amount}</span> {state.symbol}
                  </span>
                  <button type="button" data-copy="amount" aria-label={t.copyAmount}>
                    <span>{t.copy}</span>
                  </button>
                </dd>
                <dt>{t.networkLabel}</dt>
                <dd id="network">{networkName}</dd>
                <dt>{t.tokenLabel}</dt>
                <dd>
                  {token}
                  {p.tokenContract ? (
                    <details>
                      <summary>{t.contractLabel}</summary>
                      <span class="mono">{p.tokenContract}</span>
                    </details>
                  ) : null}
                </dd>
                <dt id="address-label">{t.addressLabel}</dt>
                <dd class="line">
                  <p id="address" class="mono address">
                    {state.address}
                  </p>
                  <button type="button" data-copy="address" aria-label={t.copyAddress}>
                    <span>{t.copy}</span>
                  </button>
                </dd>
              </dl>
              <figure id="qr" hidden={view !== 'waiting'}>
                <div
                  class="qr"
                  role="img"
                  aria-label={t.qrLabel}
                  dangerouslySetInnerHTML={{ __html: p.qrSvg }}
                />
                <figcaption>{p.qrCarriesAmount ? t.qrHintUri : t.qrHintAddress}</figcaption>
              </figure>
            </div>

            <p id="timer" class="timer" hidden={!payable}>
              <span>{t.timeLeft}</span>
              <strong id="countdown" role="timer">
                {formatLeft(state.expiredTime, state.serverTime)}
              </strong>
            </p>
            <noscript>
              <p class="eyebrow">{t.noscript}</p>
            </noscript>
            <footer>
              <span>
                {t.orderLabel}: <span class="mono">{state.orderId}</span>
              </span>
              <span>{t.poweredBy}</span>
            </footer>
          </div>
        </main>
        <div id="announce" class="sr-only" role="status" aria-live="polite" aria-atomic="true" />
        <script nonce={p.nonce} dangerouslySetInnerHTML={{ __html: CHECKOUT_SCRIPT }} />
      </body>
    </html>
  );
}
