import { Hono } from 'hono';
import { isCompatMode } from '../../domain/compat-mode.ts';
import { AppError } from '../../domain/errors.ts';
import {
  createMerchant,
  describeMerchants,
  disableMerchant,
  rotateMerchantToken,
  setMerchantCallback,
  setMerchantCompat,
} from '../../services/manage-merchants.ts';
import {
  type AdminC,
  type AdminContext,
  type AdminEnv,
  confirmed,
  field,
  requireAdmin,
  viewOf,
} from '../context.ts';
import { Csrf, Layout, toHtml } from '../layout.tsx';
import { SecretsPage } from '../secrets-page.tsx';
import { ActionButton, Badge, Done, Td, Time } from '../ui.tsx';
import { fill } from '../view.ts';

/** The compatibility mode a form names; a validation error for anything else. */
async function compatField(c: AdminC) {
  const mode = await field(c, 'compat');
  if (!isCompatMode(mode)) throw new AppError('validation', 'The compatibility mode must be none or xpay.');
  return mode;
}

/**
 * GET /merchants → merchants with their kind, compatibility mode, callback URL and status; admins
 * can create one (its token and webhook secret are shown once, on the answer to the POST), rotate a
 * token (shown once), set or remove a callback URL, set the compatibility mode (none or xpay), and
 * disable a merchant (rotating and disabling ask for a tick first).
 */
export function merchantsRoutes(ctx: AdminContext) {
  const { deps } = ctx;
  const audit = (c: AdminC, action: string, merchantId: string) =>
    deps.logger.info({ admin: viewOf(c).session.email, action, merchantId }, 'dashboard: merchant changed');
  return new Hono<AdminEnv>()
    .get('/merchants', async (c) => {
      const v = viewOf(c);
      const t = v.t.merchants;
      const merchants = await describeMerchants(deps);
      const admin = v.session.role === 'admin';
      return c.html(
        toHtml(
          <Layout v={v} title={t.title}>
            <h1>{t.title}</h1>
            <Done v={v} done={c.req.query('done')} />
            <section class="card">
              {merchants.length === 0 ? (
                <p>{t.empty}</p>
              ) : (
                <div class="scroll">
                  <table class="stack" id="merchants">
                    <thead>
                      <tr>
                        <th>{t.id}</th>
                        <th>{t.kind}</th>
                        <th>{t.compat}</th>
                        <th>{t.callback}</th>
                        <th>{t.status}</th>
                        <th>{t.created}</th>
                        {admin ? <th>{t.actions}</th> : null}
                      </tr>
                    </thead>
                    <tbody>
                      {merchants.map((m) => (
                        <tr data-merchant={m.merchantId}>
                          <Td label={t.id}>
                            <strong>{m.name ?? v.t.dash}</strong>
                            <span class="sub mono">{m.merchantId}</span>
                          </Td>
                          <Td label={t.kind}>{m.kind}</Td>
                          <Td label={t.compat}>
                            {admin && m.status === 'active' ? (
                              <form
                                method="post"
                                action={`${v.base}/merchants/${m.merchantId}/compat`}
                                class="inline"
                              >
                                <Csrf v={v} />
                                <select name="compat" aria-label={`${t.compat} ${m.merchantId}`}>
                                  <option value="none" selected={m.compat === 'none'}>
                                    {t.compatNone}
                                  </option>
                                  <option value="xpay" selected={m.compat === 'xpay'}>
                                    {t.compatXpay}
                                  </option>
                                </select>
                                <button type="submit" class="quiet">
                                  {t.setCompat}
                                </button>
                              </form>
                            ) : (
                              <span data-compat={m.compat}>
                                {m.compat === 'xpay' ? t.compatXpay : t.compatNone}
                              </span>
                            )}
                          </Td>
                          <Td label={t.callback}>
                            {admin && m.status === 'active' ? (
                              <form
                                method="post"
                                action={`${v.base}/merchants/${m.merchantId}/callback`}
                                class="inline"
                              >
                                <Csrf v={v} />
                                <input
                                  name="url"
                                  type="url"
                                  value={m.callbackUrl ?? ''}
                                  aria-label={`${t.callback} ${m.merchantId}`}
                                  placeholder="https://"
                                />
                                <button type="submit" class="quiet">
                                  {t.setCallback}
                                </button>
                              </form>
                            ) : (
                              <span class="mono">{m.callbackUrl ?? v.t.dash}</span>
                            )}
                          </Td>
                          <Td label={t.status}>
                            <Badge s={m.status} label={m.status === 'active' ? t.active : t.disabled} />
                          </Td>
                          <Td label={t.created}>
                            <Time ms={Date.parse(m.createdAt)} />
                          </Td>
                          {admin ? (
                            <Td label={t.actions}>
                              {m.status === 'active' ? (
                                <>
                                  <ActionButton
                                    v={v}
                                    action={`${v.base}/merchants/${m.merchantId}/rotate-token`}
                                    label={t.rotate}
                                    confirm={t.rotateConfirm}
                                  />
                                  <ActionButton
                                    v={v}
                                    action={`${v.base}/merchants/${m.merchantId}/disable`}
                                    label={t.disable}
                                    confirm={t.disableConfirm}
                                    danger
                                  />
                                </>
                              ) : (
                                v.t.dash
                              )}
                            </Td>
                          ) : null}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <p class="note">{t.compatibility}</p>
            </section>
            {admin ? (
              <section class="card">
                <h2>{t.create}</h2>
                <form method="post" action={`${v.base}/merchants`} class="filters">
                  <Csrf v={v} />
                  <div>
                    <label for="m-kind">{t.kind}</label>
                    <select id="m-kind" name="kind">
                      <option value="V3">V3</option>
                      <option value="V2">V2</option>
                    </select>
                  </div>
                  <div>
                    <label for="m-compat">{t.compat}</label>
                    <select id="m-compat" name="compat">
                      <option value="none">{t.compatNone}</option>
                      <option value="xpay">{t.compatXpay}</option>
                    </select>
                  </div>
                  <div>
                    <label for="m-name">{t.name}</label>
                    <input id="m-name" name="name" maxlength={100} />
                  </div>
                  <div>
                    <label for="m-callback">{t.callback}</label>
                    <input id="m-callback" name="callbackUrl" type="url" placeholder="https://" />
                  </div>
                  <div class="actions">
                    <button type="submit">{t.createSubmit}</button>
                  </div>
                </form>
              </section>
            ) : null}
          </Layout>,
        ),
      );
    })
    .post('/merchants', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const kind = await field(c, 'kind');
      if (kind !== 'V2' && kind !== 'V3') throw new AppError('validation', 'The kind must be V2 or V3.');
      const name = (await field(c, 'name')).trim().slice(0, 100) || null;
      const callbackUrl = (await field(c, 'callbackUrl')).trim() || null;
      // a form from before the field existed means the interface's mode
      const compat = (await field(c, 'compat')) === '' ? 'none' : await compatField(c);
      const created = await createMerchant(deps, { kind, name, callbackUrl, compat });
      audit(c, 'create', created.merchantId);
      const t = v.t.merchants;
      return c.html(
        toHtml(
          <SecretsPage
            v={v}
            title={fill(t.createdTitle, { id: created.merchantId })}
            once={t.secretsOnce}
            secrets={[
              [t.id, created.merchantId],
              [t.kind, created.kind],
              [t.compat, created.compat === 'xpay' ? t.compatXpay : t.compatNone],
              [t.token, created.token],
              [t.webhookSecret, created.webhookSecret],
            ]}
          />,
        ),
      );
    })
    .post('/merchants/:id/rotate-token', async (c) => {
      requireAdmin(c);
      await confirmed(c);
      const v = viewOf(c);
      const rotated = await rotateMerchantToken(deps, c.req.param('id'));
      audit(c, 'rotate-token', rotated.merchantId);
      const t = v.t.merchants;
      return c.html(
        toHtml(
          <SecretsPage
            v={v}
            title={fill(t.rotatedTitle, { id: rotated.merchantId })}
            once={t.rotatedOnce}
            secrets={[
              [t.id, rotated.merchantId],
              [t.token, rotated.token],
            ]}
          />,
        ),
      );
    })
    .post('/merchants/:id/callback', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const url = (await field(c, 'url')).trim();
      await setMerchantCallback(deps, c.req.param('id'), url || null);
      audit(c, 'set-callback', c.req.param('id'));
      return c.redirect(`${v.base}/merchants?done=callback`, 303);
    })
    .post('/merchants/:id/compat', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const changed = await setMerchantCompat(deps, c.req.param('id'), await compatField(c));
      audit(c, `set-compat ${changed.compat}`, changed.merchantId);
      const left = changed.previous === 'xpay' && changed.compat === 'none';
      return c.redirect(`${v.base}/merchants?done=${left ? 'compatLeft' : 'compat'}`, 303);
    })
    .post('/merchants/:id/disable', async (c) => {
      requireAdmin(c);
      await confirmed(c);
      const v = viewOf(c);
      await disableMerchant(deps, c.req.param('id'));
      audit(c, 'disable', c.req.param('id'));
      return c.redirect(`${v.base}/merchants?done=disabled`, 303);
    });
}
