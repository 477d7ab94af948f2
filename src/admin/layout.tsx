import type { Child } from 'hono/jsx';
import { LIVE_SCRIPT } from './live-script.ts';
import { DASHBOARD_CSS } from './styles.ts';
import { fill, type View } from './view.ts';

const SECTIONS = ['overview', 'orders', 'payouts', 'money', 'merchants', 'webhooks', 'deposits'] as const;
type Section = (typeof SECTIONS)[number];

/** The path of a section inside the dashboard. */
export function sectionPath(section: Section | 'account'): string {
  return section === 'overview' ? '' : `/${section}`;
}

function currentSection(path: string): Section | 'account' | null {
  if (path === '/' || path === '') return 'overview';
  const first = path.split('/')[1] as Section | 'account';
  return [...SECTIONS, 'account'].includes(first) ? first : null;
}

/** A hidden field with the page's CSRF token: every form that changes something carries it. */
export function Csrf({ v }: { v: View }) {
  return <input type="hidden" name="csrf" value={v.csrf ?? ''} />;
}

function LanguageLinks({ v }: { v: View }) {
  const href = (lang: string) =>
    `${v.base}${v.path === '/' ? '' : v.path}?${v.query ? `${v.query}&` : ''}lang=${lang}`;
  return (
    <span class="lang">
      <span class="sr-only">{v.t.languageSwitch}: </span>
      <a href={href('en')} lang="en" aria-current={v.lang === 'en' ? 'true' : undefined}>
        EN
      </a>{' '}
      <a href={href('zh')} lang="zh-CN" aria-current={v.lang === 'zh' ? 'true' : undefined}>
        中文
      </a>
    </span>
  );
}

/**
 * The page around every dashboard screen: header with the sections, who is signed in, the language
 * switch and sign-out; the inline stylesheet and (only where `live` is set) the live-refresh
 * script, both by nonce. `title` is the document title.
 */
export function Layout(props: { v: View; title: string; children: Child; live?: boolean }) {
  const { v } = props;
  const t = v.t;
  const here = currentSection(v.path);
  return (
    <html lang={t.htmlLang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${props.title} · ${t.brand}`}</title>
        <style nonce={v.nonce} dangerouslySetInnerHTML={{ __html: DASHBOARD_CSS }} />
      </head>
      <body>
        <a class="skip" href="#main">
          {t.skip}
        </a>
        <header class="top">
          <div class="bar">
            <a class="brand" href={v.base || '/'}>
              {t.brand}
            </a>
            <span class="net" data-net={v.network}>
              {t.network[v.network]}
            </span>
            <div class="who">
              {v.session ? (
                <span>{fill(t.signedInAs, { email: v.session.email, role: t.roles[v.session.role] })}</span>
              ) : null}
              <LanguageLinks v={v} />
              {v.session ? (
                <>
                  <a href={`${v.base}/account`} aria-current={here === 'account' ? 'page' : undefined}>
                    {t.nav.account}
                  </a>
                  <form method="post" action={`${v.base}/logout`}>
                    <Csrf v={v} />
                    <button type="submit">{t.signOut}</button>
                  </form>
                </>
              ) : null}
            </div>
          </div>
          {v.session ? (
            <nav class="sections" aria-label={t.nav.label}>
              <ul>
                {SECTIONS.map((s) => (
                  <li>
                    <a
                      href={`${v.base}${sectionPath(s)}` || '/'}
                      aria-current={here === s ? 'page' : undefined}
                    >
                      {t.nav[s]}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </header>
        <main id="main">
          {v.session?.role === 'viewer' ? <p class="notice">{t.viewerNote}</p> : null}
          {props.children}
        </main>
        <footer class="foot">
          {t.timesInUtc} {props.live ? t.noJsLive : null}
        </footer>
        {props.live ? <script nonce={v.nonce} dangerouslySetInnerHTML={{ __html: LIVE_SCRIPT }} /> : null}
      </body>
    </html>
  );
}

/** Renders a page element to an HTML document (hono/jsx renders synchronously here). */
export function toHtml(node: { toString(): unknown }): string {
  const out = node.toString();
  if (typeof out !== 'string' && !(out instanceof String))
    throw new Error('dashboard pages render synchronously');
  return `<!DOCTYPE html>${out}`;
}
