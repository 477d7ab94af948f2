import { Hono } from 'hono';
import { NOTIFY_TYPES } from '../../domain/events.ts';
import { browseWebhooks, type WebhooksQuery } from '../../services/browse-webhooks.ts';
import { describeMerchants } from '../../services/manage-merchants.ts';
import { resendWebhook } from '../../services/resend-webhook.ts';
import {
  type AdminContext,
  type AdminEnv,
  doneAt,
  field,
  queryOf,
  requireAdmin,
  viewOf,
} from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { ActionButton, Badge, Done, Pager, Select, Td, Time } from '../ui.tsx';
import { fill, utc } from '../view.ts';

const FIELDS = ['status', 'merchant', 'type'] as const;

/**
 * GET /webhooks → the delivery log, newest first, filtered by status, merchant and event type,
 * each event with its latest answer (status code, latency) and a resend button (admins).
 * POST /webhooks/:eventId/resend → queues the event again (same eventId, fresh retry window) and
 * goes back to `back` (a dashboard page) with a note; an unknown event answers 404.
 */
export function webhooksRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>()
    .get('/webhooks', async (c) => {
      const v = viewOf(c);
      const t = v.t.webhooks;
      const raw = queryOf(c);
      const query: WebhooksQuery = Object.fromEntries(
        [...FIELDS, 'after'].map((k) => [k, raw[k]?.trim() || undefined]),
      );
      const [result, merchants] = await Promise.all([
        browseWebhooks(ctx.deps, query),
        describeMerchants(ctx.deps),
      ]);
      const keep = new URLSearchParams();
      for (const k of FIELDS) if (query[k]) keep.set(k, query[k] as string);
      const admin = v.session.role === 'admin';
      const types = [
        ...new Set<string>([...NOTIFY_TYPES, 'WEBHOOK_TEST', ...(query.type ? [query.type] : [])]),
      ];
      return c.html(
        toHtml(
          <Layout v={v} title={t.title}>
            <h1>{t.title}</h1>
            <Done v={v} done={c.req.query('done')} />
            <section class="card">
              <form method="get" action={`${v.base}/webhooks`} class="filters">
                <Select
                  name="status"
                  label={t.status}
                  value={query.status}
                  anyLabel={v.t.any}
                  options={(['failed', 'pending', 'delivered', 'skipped'] as const).map((s) => ({
                    value: s,
                    label: t.statuses[s],
                  }))}
                />
                <Select
                  name="merchant"
                  label={t.merchant}
                  value={query.merchant}
                  anyLabel={v.t.any}
                  options={merchants.map((m) => ({ value: m.merchantId, label: m.name ?? m.merchantId }))}
                />
                <Select
                  name="type"
                  label={t.type}
                  value={query.type}
                  anyLabel={v.t.any}
                  options={types.map((x) => ({ value: x, label: x }))}
                />
                <div class="actions">
                  <button type="submit">{v.t.apply}</button>
                  <a href={`${v.base}/webhooks`}>{v.t.clear}</a>
                </div>
              </form>
            </section>
            <section class="card">
              {result.events.length === 0 ? (
                <p>{t.empty}</p>
              ) : (
                <div class="scroll">
                  <table class="stack" id="events">
                    <thead>
                      <tr>
                        <th>{t.created}</th>
                        <th>{t.type}</th>
                        <th>{t.order}</th>
                        <th>{t.status}</th>
                        <th class="num">{t.attempts}</th>
                        <th>{t.last}</th>
                        <th>{t.next}</th>
                        {admin ? <th>{v.t.merchants.actions}</th> : null}
                      </tr>
                    </thead>
                    <tbody>
                      {result.events.map((e) => (
                        <tr data-event={e.id}>
                          <Td label={t.created}>
                            <Time ms={e.createdAt} />
                          </Td>
                          <Td label={t.type}>
                            {e.notifyType}
                            <span class="sub mono">{e.id}</span>
                          </Td>
                          <Td label={t.order}>
                            {e.orderRef ? (
                              <a href={`${v.base}/orders/${e.orderRef}`} class="mono">
                                {e.orderId ?? e.orderRef}
                              </a>
                            ) : (
                              t.testEvent
                            )}
                            <span class="sub">{e.merchantName ?? e.merchantId}</span>
                          </Td>
                          <Td label={t.status}>
                            <Badge s={e.status} label={t.statuses[e.status]} />
                          </Td>
                          <Td label={t.attempts} num>
                            {e.attempts}
                          </Td>
                          <Td label={t.last}>
                            {e.lastAttempt
                              ? `${e.lastAttempt.statusCode ?? v.t.order.noAnswer} · ${e.lastAttempt.latencyMs} ms`
                              : v.t.dash}
                            {e.lastError ? <span class="sub">{e.lastError}</span> : null}
                          </Td>
                          <Td label={t.next}>{e.status === 'pending' ? utc(e.nextAttemptAt) : v.t.dash}</Td>
                          {admin ? (
                            <Td label={v.t.merchants.actions}>
                              <ActionButton
                                v={v}
                                action={`${v.base}/webhooks/${e.id}/resend`}
                                label={v.t.order.resend}
                                fields={{ back: `${v.base}/webhooks?${keep.toString()}` }}
                              />
                            </Td>
                          ) : null}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {result.partial && result.next ? (
                <p class="notice warn">
                  {fill(v.t.partialEvents, { time: utc(Number(result.next.split('.')[0])) })}
                </p>
              ) : null}
              <Pager
                v={v}
                path={`${v.base}/webhooks`}
                keep={keep}
                shown={result.events.length}
                after={query.after}
                next={result.next}
                partial={result.partial}
              />
            </section>
          </Layout>,
        ),
      );
    })
    .post('/webhooks/:eventId/resend', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const eventId = c.req.param('eventId');
      await resendWebhook(ctx.deps, eventId);
      ctx.deps.logger.info({ admin: v.session.email, eventId }, 'dashboard: webhook resent');
      return c.redirect(doneAt(v, await field(c, 'back'), `${v.base}/webhooks`, 'resent'), 303);
    });
}
