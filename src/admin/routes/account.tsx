import { Hono } from 'hono';
import { renderQrSvg } from '../../checkout/qr.ts';
import { AdminAuthError } from '../../services/admin-auth-error.ts';
import { listSessions, signOutEverywhere } from '../../services/admin-sessions.ts';
import {
  beginTotpSetup,
  confirmTotpSetup,
  pendingTotpSetup,
  type TotpSetup,
  turnOffTotp,
} from '../../services/admin-totp.ts';
import { type AdminContext, type AdminEnv, field, viewOf } from '../context.ts';
import { Csrf, Layout, toHtml } from '../layout.tsx';
import { clearSessionCookie } from '../security.ts';
import { ActionButton, CodeField, Done, Td, Time } from '../ui.tsx';
import type { View } from '../view.ts';

type AccountView = View & { session: NonNullable<View['session']>; csrf: string };

function AccountPage(props: {
  v: AccountView;
  setup: TotpSetup | null;
  sessions: Awaited<ReturnType<typeof listSessions>>;
  message?: string | null;
  done?: string;
}) {
  const { v, setup } = props;
  const t = v.t.account;
  const s = v.session;
  return (
    <Layout v={v} title={t.title}>
      <h1>{t.title}</h1>
      <Done v={v} done={props.done} />
      {props.message ? (
        <p class="notice bad" role="alert">
          {props.message}
        </p>
      ) : null}
      <section class="card">
        <dl class="facts">
          <dt>{t.email}</dt>
          <dd>{s.email}</dd>
          <dt>{t.role}</dt>
          <dd>{v.t.roles[s.role]}</dd>
        </dl>
      </section>
      <section class="card" id="totp">
        <h2>{t.totp}</h2>
        <p data-totp={s.totpOn ? 'on' : 'off'}>{s.totpOn ? t.totpOnText : t.totpOffText}</p>
        {s.totpOn ? (
          <form method="post" action={`${v.base}/account/totp/off`} class="inline">
            <Csrf v={v} />
            <CodeField id="totp-code" label={t.turnOffHelp} />
            <button type="submit" class="quiet">
              {t.turnOff}
            </button>
          </form>
        ) : setup ? (
          <>
            <p>{t.scan}</p>
            <div
              class="qr"
              role="img"
              aria-label={t.scan}
              dangerouslySetInnerHTML={{ __html: renderQrSvg(setup.uri) }}
            />
            <p>
              {t.key}:{' '}
              <span class="mono" id="totp-secret">
                {setup.secret}
              </span>
            </p>
            <form method="post" action={`${v.base}/account/totp/confirm`} class="inline">
              <Csrf v={v} />
              <CodeField id="totp-code" label={v.t.signIn.code} />
              <button type="submit">{t.confirm}</button>
            </form>
          </>
        ) : (
          <ActionButton v={v} action={`${v.base}/account/totp/begin`} label={t.turnOn} />
        )}
      </section>
      <section class="card">
        <h2>{t.sessions}</h2>
        <table class="stack" id="sessions">
          <thead>
            <tr>
              <th>{t.started}</th>
              <th>{t.lastSeen}</th>
              <th>{t.address}</th>
              <th>{t.browser}</th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((x) => (
              <tr>
                <Td label={t.started}>
                  <Time ms={x.createdAt} />{' '}
                  {x.sessionId === s.sessionId ? <strong>({t.thisSession})</strong> : null}
                </Td>
                <Td label={t.lastSeen}>
                  <Time ms={x.lastSeenAt} />
                </Td>
                <Td label={t.address}>{x.address ?? v.t.dash}</Td>
                <Td label={t.browser}>{x.userAgent ?? v.t.dash}</Td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="note">{t.everywhereHelp}</p>
        <ActionButton v={v} action={`${v.base}/account/sign-out-everywhere`} label={t.everywhere} danger />
      </section>
    </Layout>
  );
}

/**
 * GET /account → the signed-in user's account: turn two-factor sign-in on (QR code and key of a new
 * TOTP key, confirmed by a code) or off (with a current code), their sessions, and sign out
 * everywhere. Every user may do these for themselves, viewers included.
 */
export function accountRoutes(ctx: AdminContext) {
  const { deps, base } = ctx;
  const page = async (
    v: AccountView,
    extra: { message?: string | null; done?: string; setup?: TotpSetup | null } = {},
  ) =>
    toHtml(
      <AccountPage
        v={v}
        setup={extra.setup !== undefined ? extra.setup : await pendingTotpSetup(deps, v.session.userId)}
        sessions={await listSessions(deps, v.session.userId)}
        message={extra.message}
        done={extra.done}
      />,
    );
  return new Hono<AdminEnv>()
    .get('/account', async (c) => c.html(await page(viewOf(c), { done: c.req.query('done') })))
    .post('/account/totp/begin', async (c) => {
      const v = viewOf(c);
      const setup = await beginTotpSetup(deps, v.session.userId);
      return c.html(await page(v, { setup }));
    })
    .post('/account/totp/confirm', async (c) => {
      const v = viewOf(c);
      try {
        await confirmTotpSetup(deps, {
          userId: v.session.userId,
          code: await field(c, 'code'),
          keepSessionId: v.session.sessionId,
        });
      } catch (error) {
        if (!(error instanceof AdminAuthError)) throw error;
        return c.html(await page(v, { message: v.t.signIn.badCode }), 400);
      }
      deps.logger.info({ admin: v.session.email }, 'dashboard: two-factor sign-in turned on');
      return c.redirect(`${base}/account?done=totpOn`, 303);
    })
    .post('/account/totp/off', async (c) => {
      const v = viewOf(c);
      try {
        await turnOffTotp(deps, { userId: v.session.userId, code: await field(c, 'code') });
      } catch (error) {
        if (!(error instanceof AdminAuthError)) throw error;
        return c.html(await page(v, { message: v.t.signIn.badCode }), 400);
      }
      deps.logger.info({ admin: v.session.email }, 'dashboard: two-factor sign-in turned off');
      return c.redirect(`${base}/account?done=totpOff`, 303);
    })
    .post('/account/sign-out-everywhere', async (c) => {
      const v = viewOf(c);
      const ended = await signOutEverywhere(deps, v.session.userId);
      deps.logger.info({ admin: v.session.email, ended }, 'dashboard: signed out everywhere');
      clearSessionCookie(c, base || '/', ctx.trust);
      return c.redirect(`${base}/login?out=1`, 303);
    });
}
