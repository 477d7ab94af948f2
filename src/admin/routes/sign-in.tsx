import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { clientIp } from '../../http/middleware/client-ip.ts';
import { AdminAuthError } from '../../services/admin-auth-error.ts';
import { sessionFromToken, signOut } from '../../services/admin-sessions.ts';
import { signInWithCode, signInWithPassword } from '../../services/admin-sign-in.ts';
import type { AdminC, AdminContext, AdminEnv } from '../context.ts';
import { field, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Refusal } from '../refusal.ts';
import {
  clearSessionCookie,
  crossSite,
  csrfTokenFor,
  PRE_COOKIE,
  preSignInToken,
  sameToken,
  sessionToken,
  setSessionCookie,
} from '../security.ts';
import { CodeField } from '../ui.tsx';
import { fill, type View } from '../view.ts';

/** Where to go after signing in: a path inside the dashboard only (never another site). */
function safeNext(next: string | undefined, base: string): string {
  if (next?.startsWith(`${base}/`) && !next.startsWith('//') && !/[\\\s]/.test(next)) return next;
  if (next === base && base !== '') return next;
  return base || '/';
}

function PasswordForm(props: {
  v: View;
  csrf: string;
  next: string;
  email?: string;
  message?: string | null;
  info?: string | null;
}) {
  const { v } = props;
  const t = v.t.signIn;
  return (
    <Layout v={v} title={t.title}>
      <div class="signin">
        <section class="card">
          <h1>{t.title}</h1>
          {props.info ? (
            <p class="notice" role="status">
              {props.info}
            </p>
          ) : null}
          {props.message ? (
            <p class="notice bad" role="alert" id="sign-in-error">
              {props.message}
            </p>
          ) : null}
          <form method="post" action={`${v.base}/login`}>
            <input type="hidden" name="csrf" value={props.csrf} />
            <input type="hidden" name="next" value={props.next} />
            <div>
              <label for="email">{t.email}</label>
              <input
                id="email"
                name="email"
                type="email"
                autocomplete="username"
                required
                value={props.email ?? ''}
              />
            </div>
            <div>
              <label for="password">{t.password}</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required />
            </div>
            <button type="submit">{t.submit}</button>
          </form>
        </section>
      </div>
    </Layout>
  );
}

function CodeForm(props: { v: View; csrf: string; next: string; message?: string | null }) {
  const { v } = props;
  const t = v.t.signIn;
  return (
    <Layout v={v} title={t.codeTitle}>
      <div class="signin">
        <section class="card">
          <h1>{t.codeTitle}</h1>
          <p>{t.codeHelp}</p>
          {props.message ? (
            <p class="notice bad" role="alert" id="sign-in-error">
              {props.message}
            </p>
          ) : null}
          <form method="post" action={`${v.base}/login/code`}>
            <input type="hidden" name="csrf" value={props.csrf} />
            <input type="hidden" name="next" value={props.next} />
            <div>
              <CodeField id="code" label={t.code} />
            </div>
            <button type="submit">{t.codeSubmit}</button>
          </form>
          <p>
            <a href={`${v.base}/login`}>{t.startOver}</a>
          </p>
        </section>
      </div>
    </Layout>
  );
}

function refusalMessage(v: View, error: AdminAuthError): { message: string; status: 400 | 401 | 429 } {
  const t = v.t.signIn;
  const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
  switch (error.reason) {
    case 'credentials':
      return { message: t.credentials, status: 401 };
    case 'code':
      return { message: t.badCode, status: 401 };
    case 'locked':
      return { message: fill(t.locked, { minutes }), status: 429 };
    case 'too_many':
      return { message: fill(t.tooMany, { minutes }), status: 429 };
    case 'session':
      return { message: t.expired, status: 401 };
  }
}

/**
 * GET/POST /login (email and password), GET/POST /login/code (the TOTP step for users who turned it
 * on), POST /logout. The sign-in form's CSRF token is a random value in its own SameSite=Strict
 * cookie; the code step's is tied to the half session. A refused attempt answers 401 or 429 with
 * the form and the reason; a right one sets the session cookie and goes to `next` (a dashboard path).
 */
export function signInRoutes(ctx: AdminContext) {
  const { deps, base } = ctx;
  const trust = ctx.trust;
  const client = (c: AdminC) => ({
    address: clientIp(c, trust),
    userAgent: c.req.header('user-agent') ?? null,
    limiter: ctx.limiter,
  });
  return new Hono<AdminEnv>()
    .get('/login', (c) => {
      const v = c.get('view');
      const next = safeNext(c.req.query('next'), base);
      if (v.session) return c.redirect(next, 303);
      const info = c.req.query('out')
        ? v.t.signIn.signedOut
        : c.req.query('ended')
          ? v.t.signIn.sessionEnded
          : null;
      return c.html(
        toHtml(<PasswordForm v={v} csrf={preSignInToken(c, base || '/', trust)} next={next} info={info} />),
      );
    })
    .post('/login', async (c) => {
      const v = c.get('view');
      if (crossSite(c)) throw new Refusal(403, 'crossSite');
      const csrf = await field(c, 'csrf');
      if (!sameToken(csrf, getCookie(c, PRE_COOKIE))) throw new Refusal(403, 'csrf');
      const next = safeNext(await field(c, 'next'), base);
      const email = await field(c, 'email');
      try {
        const result = await signInWithPassword(
          deps,
          { email, password: await field(c, 'password') },
          client(c),
        );
        setSessionCookie(c, result.token, result.expiresAt, deps.clock.now(), base || '/', trust);
        if (result.stage === 'password')
          return c.redirect(`${base}/login/code?next=${encodeURIComponent(next)}`, 303);
        deps.logger.info({ admin: email.trim().toLowerCase() }, 'dashboard sign-in');
        return c.redirect(next, 303);
      } catch (error) {
        if (!(error instanceof AdminAuthError)) throw error;
        const { message, status } = refusalMessage(v, error);
        if (error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds));
        deps.logger.warn(
          { admin: email.trim().toLowerCase().slice(0, 254), reason: error.reason },
          'dashboard sign-in refused',
        );
        return c.html(
          toHtml(<PasswordForm v={v} csrf={csrf} next={next} email={email} message={message} />),
          status,
        );
      }
    })
    .get('/login/code', async (c) => {
      const v = c.get('view');
      const token = sessionToken(c);
      const half = await sessionFromToken(deps, token);
      const next = safeNext(c.req.query('next'), base);
      if (v.session) return c.redirect(next, 303);
      if (half?.stage !== 'password' || !token) return c.redirect(`${base}/login`, 303);
      return c.html(toHtml(<CodeForm v={v} csrf={csrfTokenFor(token)} next={next} />));
    })
    .post('/login/code', async (c) => {
      const v = c.get('view');
      if (crossSite(c)) throw new Refusal(403, 'crossSite');
      const token = sessionToken(c);
      const csrf = await field(c, 'csrf');
      if (!token || !sameToken(csrf, csrfTokenFor(token))) throw new Refusal(403, 'csrf');
      const next = safeNext(await field(c, 'next'), base);
      try {
        const result = await signInWithCode(deps, { token, code: await field(c, 'code') }, client(c));
        setSessionCookie(c, result.token, result.expiresAt, deps.clock.now(), base || '/', trust);
        deps.logger.info({ userId: result.userId }, 'dashboard sign-in (with a second factor)');
        return c.redirect(next, 303);
      } catch (error) {
        if (!(error instanceof AdminAuthError)) throw error;
        const { message, status } = refusalMessage(v, error);
        if (error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds));
        if (error.reason === 'session' || error.reason === 'locked') {
          clearSessionCookie(c, base || '/', trust);
          return c.html(
            toHtml(
              <PasswordForm
                v={v}
                csrf={preSignInToken(c, base || '/', trust)}
                next={next}
                message={message}
              />,
            ),
            status,
          );
        }
        return c.html(toHtml(<CodeForm v={v} csrf={csrf} next={next} message={message} />), status);
      }
    })
    .post('/logout', async (c) => {
      viewOf(c);
      const token = c.get('token');
      if (token) await signOut(deps, token);
      deps.logger.info({ admin: viewOf(c).session.email }, 'dashboard sign-out');
      clearSessionCookie(c, base || '/', trust);
      return c.redirect(`${base}/login?out=1`, 303);
    });
}
