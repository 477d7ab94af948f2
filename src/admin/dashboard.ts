import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import { pickLanguage } from '../checkout/language.ts';
import { AppError } from '../domain/errors.ts';
import { ProxyTrust } from '../http/middleware/client-ip.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { SharedCache } from '../lib/shared-cache.ts';
import { AdminAuthError } from '../services/admin-auth-error.ts';
import { sessionFromToken } from '../services/admin-sessions.ts';
import { depositTotals } from '../services/deposit-totals.ts';
import type { Deps } from '../services/deps.ts';
import { hotWalletHealth } from '../services/hot-wallet-health.ts';
import { orderTotals } from '../services/order-totals.ts';
import { type AdminContext, type AdminEnv, TOTALS_TTL_MS, WALLETS_TTL_MS } from './context.ts';
import { renderErrorPage } from './error-page.tsx';
import { en } from './i18n/en.ts';
import { zh } from './i18n/zh.ts';
import { Refusal } from './refusal.ts';
import { accountRoutes } from './routes/account.tsx';
import { depositsRoutes } from './routes/deposits.tsx';
import { merchantsRoutes } from './routes/merchants.tsx';
import { moneyRoutes } from './routes/money.tsx';
import { orderRoutes } from './routes/order.tsx';
import { ordersRoutes } from './routes/orders.tsx';
import { overviewRoutes } from './routes/overview.tsx';
import { payoutsRoutes } from './routes/payouts.tsx';
import { signInRoutes } from './routes/sign-in.tsx';
import { webhooksRoutes } from './routes/webhooks.tsx';
import {
  cookieOptions,
  crossSite,
  csrfTokenFor,
  DASHBOARD_HEADERS,
  dashboardCsp,
  LANG_COOKIE,
  newNonce,
  sameToken,
  sessionToken,
} from './security.ts';
import { type AdminLanguage, fill, type View } from './view.ts';

const STRINGS = { en, zh } as const;
/** Paths anyone may open: the sign-in steps. */
const PUBLIC = new Set(['/login', '/login/code']);

function innerPath(path: string, base: string): string {
  const inner = path.startsWith(base) ? path.slice(base.length) : path;
  return inner === '' ? '/' : inner;
}

/**
 * The operator's dashboard as a Hono app to mount at `basePath` (see mountAdminDashboard). Pages are
 * rendered on the server with no external asset, under a strict CSP with a per-response nonce,
 * and work without JavaScript. Every page but sign-in needs a full session; every POST needs the
 * page's CSRF token (and is refused when the browser says it came from another site); actions that
 * change something need the admin role. Refusals answer 4xx pages, never a redirect to success.
 */
export function createAdminDashboard(deps: Deps, options: { basePath: string }): Hono<AdminEnv> {
  const base = options.basePath.replace(/\/+$/, '');
  const now = () => deps.clock.now();
  const adapters = deps.adapters;
  const ctx: AdminContext = {
    deps,
    base,
    limiter: new RateLimiter(now),
    trust: new ProxyTrust(deps.config.trustProxy),
    totals: new SharedCache(() => orderTotals(deps), TOTALS_TTL_MS, now),
    wallets:
      adapters.size > 0 && deps.keys
        ? new SharedCache(() => hotWalletHealth(deps, adapters), WALLETS_TTL_MS, now)
        : null,
    deposits: new SharedCache(() => depositTotals(deps), TOTALS_TTL_MS, now),
  };
  const trust = ctx.trust;
  const dash = new Hono<AdminEnv>();

  dash.use(
    '*',
    bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new Refusal(413, 'csrf');
      },
    }),
  );

  dash.use('*', async (c, next) => {
    if (c.req.method === 'GET' && c.req.path.length > base.length + 1 && c.req.path.endsWith('/')) {
      const url = new URL(c.req.url);
      return c.redirect(`${c.req.path.replace(/\/+$/, '')}${url.search}`, 308);
    }
    const nonce = newNonce();
    for (const [name, value] of Object.entries(DASHBOARD_HEADERS)) c.header(name, value);
    c.header('Content-Security-Policy', dashboardCsp(nonce));
    const asked = c.req.query('lang');
    const lang: AdminLanguage = pickLanguage(
      asked ?? getCookie(c, LANG_COOKIE),
      c.req.header('accept-language'),
    );
    if (asked && (asked === 'en' || asked === 'zh'))
      setCookie(c, LANG_COOKIE, asked, {
        ...cookieOptions(c, base || '/', trust, 365 * 86400),
        httpOnly: true,
      });
    const path = innerPath(c.req.path, base);
    const token = sessionToken(c);
    const found = await sessionFromToken(deps, token);
    const session = found?.stage === 'full' ? found : null;
    const query = new URLSearchParams(c.req.query());
    query.delete('lang');
    const view: View = {
      t: STRINGS[lang],
      lang,
      base,
      path,
      query: query.toString(),
      nonce,
      session,
      csrf: session && token ? csrfTokenFor(token) : null,
      network: deps.config.network,
      now: now(),
    };
    c.set('view', view);
    c.set('token', session ? token : undefined);
    if (!PUBLIC.has(path) && !session) {
      if (c.req.method === 'GET' || c.req.method === 'HEAD') {
        const next = c.req.path + (new URL(c.req.url).search || '');
        return c.redirect(`${base}/login?next=${encodeURIComponent(next)}`, 303);
      }
      throw new Refusal(401, 'signedOut');
    }
    if (c.req.method === 'POST' && !PUBLIC.has(path)) {
      if (crossSite(c)) throw new Refusal(403, 'crossSite');
      const body = await c.req.parseBody();
      if (!sameToken(typeof body.csrf === 'string' ? body.csrf : null, view.csrf))
        throw new Refusal(403, 'csrf');
    }
    await next();
  });

  for (const routes of [
    signInRoutes,
    overviewRoutes,
    ordersRoutes,
    orderRoutes,
    payoutsRoutes,
    moneyRoutes,
    merchantsRoutes,
    webhooksRoutes,
    depositsRoutes,
    accountRoutes,
  ])
    dash.route('/', routes(ctx));

  dash.all('*', () => {
    throw new Refusal(404, 'notFound');
  });

  dash.onError((error, c) => {
    const v = c.get('view') ?? {
      t: en,
      lang: 'en',
      base,
      path: innerPath(c.req.path, base),
      query: '',
      nonce: newNonce(),
      session: null,
      csrf: null,
      network: deps.config.network,
      now: now(),
    };
    if (!c.get('view')) c.header('Content-Security-Policy', dashboardCsp(v.nonce));
    const t = v.t.errors;
    if (error instanceof Refusal) return c.html(renderErrorPage(v, t[error.kind]), error.status);
    if (error instanceof AdminAuthError)
      return c.html(renderErrorPage(v, v.t.signIn.badCode), error.reason === 'too_many' ? 429 : 400);
    if (error instanceof AppError) {
      switch (error.code) {
        case 'validation':
          return c.html(renderErrorPage(v, fill(t.validation, { detail: error.detail ?? '' })), 400);
        case 'not_found':
          return c.html(renderErrorPage(v, error.detail ?? t.notFound), 404);
        case 'order_not_found':
          return c.html(renderErrorPage(v, t.orderNotFound), 404);
        case 'state_conflict':
          return c.html(renderErrorPage(v, fill(t.conflict, { detail: error.detail ?? '' })), 409);
        default:
          break;
      }
    }
    deps.logger.error({ err: error, path: c.req.path }, 'dashboard request failed');
    return c.html(renderErrorPage(v, t.internal), 500);
  });
  return dash;
}

/**
 * The dashboard as a route group of the HTTP app (http/app.ts `extraRoutes`), mounted at
 * `basePath`: how `kassa start` and `kassa api` serve it when `admin.dashboard` is `api-port`.
 */
export function dashboardRouteGroup(basePath = '/admin'): (ctx: { deps: Deps }) => Hono {
  return (ctx) => {
    const app = new Hono();
    mountAdminDashboard(app, ctx.deps, { basePath });
    return app;
  };
}

/** Mounts the dashboard on `app` at `basePath` (default `/admin`). */
export function mountAdminDashboard(app: Hono, deps: Deps, options: { basePath?: string } = {}): void {
  const basePath = options.basePath ?? '/admin';
  app.route(basePath, createAdminDashboard(deps, { basePath }) as unknown as Hono);
}
