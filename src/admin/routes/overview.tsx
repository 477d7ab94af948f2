import { Hono } from 'hono';
import { overviewNow } from '../../services/dashboard-overview.ts';
import { PERIODS, type Period } from '../../services/order-totals.ts';
import { type AdminContext, type AdminEnv, TOTALS_TTL_MS, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Badge, Td } from '../ui.tsx';
import { fill, utc } from '../view.ts';
import { readWithin, WalletsSection } from '../wallets.tsx';

const sum = (o: Partial<Record<string, number>>, keys: string[]) => keys.reduce((n, k) => n + (o[k] ?? 0), 0);

/**
 * GET / → the overview: what needs attention (open orders, payouts waiting for the operator,
 * webhooks failed or pending, scanners behind), each scanner's progress, the hot wallets with a warning when the native coin for fees
 * runs low, and collections and payouts of today, 7 or 30 days (`?period=`) by chain and token.
 * Refreshes itself every 15 s with JavaScript on.
 */
export function overviewRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/', async (c) => {
    const v = viewOf(c);
    const t = v.t.overview;
    const asked = c.req.query('period');
    const period: Period = (PERIODS as readonly string[]).includes(asked ?? '') ? (asked as Period) : 'today';
    const [now, totals, wallets] = await Promise.all([
      overviewNow(ctx.deps),
      readWithin(ctx.totals),
      readWithin(ctx.wallets),
    ]);
    const openCollections = sum(now.open.collections, ['INIT', 'PENDING', 'PENDING_CONFIRMATION']);
    const queued = now.open.payouts.INIT ?? 0;
    const sent = sum(now.open.payouts, ['PENDING', 'PENDING_CONFIRMATION']);
    const behind = now.chains.filter((ch) => !ch.ready).length;
    const rows = totals?.data[period] ?? [];
    const pct = (r: number | null) => (r === null ? v.t.dash : `${(Math.floor(r * 1000) / 10).toFixed(1)} %`);
    const periodHref = (p: Period) => `${v.base || '/'}?period=${p}`;
    return c.html(
      toHtml(
        <Layout v={v} title={t.title} live>
          <h1>{t.title}</h1>
          <div id="live" data-every="15">
            <h2 class="sr-only">{t.attention}</h2>
            <div class="tiles">
              <a class="tile" href={`${v.base}/orders?type=COLLECTION&status=open`}>
                <strong>{openCollections}</strong>
                <span>{t.openCollections}</span>
              </a>
              <a class="tile" href={`${v.base}/payouts`}>
                <strong>{queued + sent}</strong>
                <span>
                  {t.openPayouts}: {fill(t.queued, { n: queued })}, {fill(t.sent, { n: sent })}
                </span>
              </a>
              <a
                class="tile"
                href={`${v.base}/payouts`}
                id="payouts-waiting"
                data-alert={now.held.approval + now.held.stuck > 0 ? '' : undefined}
              >
                <strong>{now.held.approval + now.held.stuck}</strong>
                <span>
                  {t.waiting}: {fill(t.waitingDetail, { approval: now.held.approval, stuck: now.held.stuck })}
                </span>
              </a>
              <a
                class="tile"
                href={`${v.base}/webhooks?status=failed`}
                data-alert={now.webhooks.failed > 0 ? '' : undefined}
              >
                <strong id="webhooks-failed">{now.webhooks.failed}</strong>
                <span>{t.webhooksFailed}</span>
              </a>
              <a class="tile" href={`${v.base}/webhooks?status=pending`}>
                <strong>{now.webhooks.pending}</strong>
                <span>{t.webhooksPending}</span>
              </a>
              <a class="tile" href="#scanners" data-alert={behind > 0 ? '' : undefined}>
                <strong>{behind}</strong>
                <span>{t.chainsBehind}</span>
              </a>
            </div>
            <section class="card" id="scanners">
              <h2>{t.scanners}</h2>
              {now.chains.length === 0 ? (
                <p class="note">{t.noChains}</p>
              ) : (
                <div class="scroll">
                  <table class="stack">
                    <thead>
                      <tr>
                        <th>{t.chain}</th>
                        <th class="num">{t.scannedTo}</th>
                        <th class="num">{t.head}</th>
                        <th class="num">{t.lag}</th>
                        <th>{t.state}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {now.chains.map((ch) => (
                        <tr data-chain={ch.chain}>
                          <Td label={t.chain}>
                            <strong>{ch.chain}</strong>
                          </Td>
                          <Td label={t.scannedTo} num>
                            {ch.scannedTo ?? v.t.dash}
                          </Td>
                          <Td label={t.head} num>
                            {ch.head ?? v.t.dash}
                          </Td>
                          <Td label={t.lag} num>
                            {ch.lagSeconds === null ? v.t.dash : fill(t.seconds, { n: ch.lagSeconds })}
                          </Td>
                          <Td label={t.state}>
                            {ch.ready ? (
                              <Badge s="ok" label={t.ok} />
                            ) : (
                              <Badge s="bad" label={ch.problem ?? '?'} />
                            )}
                          </Td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
            <WalletsSection v={v} wallets={wallets} connected={ctx.wallets !== null} />
            <section class="card" id="totals">
              <h2>{t.totals}</h2>
              <nav class="periods" aria-label={t.totals}>
                {PERIODS.map((p) => (
                  <a href={periodHref(p)} aria-current={p === period ? 'page' : undefined}>
                    {t.periods[p]}
                  </a>
                ))}
              </nav>
              {!totals ? (
                <p class="note">{t.counting}</p>
              ) : rows.length === 0 ? (
                <p class="note">{t.noOrders}</p>
              ) : (
                <div class="scroll">
                  <table class="stack">
                    <thead>
                      <tr>
                        <th>{t.type}</th>
                        <th>{t.chain}</th>
                        <th>{t.token}</th>
                        <th class="num">{t.count}</th>
                        <th class="num">{t.succeeded}</th>
                        <th class="num">{t.successRate}</th>
                        <th class="num">{t.amount}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr>
                          <Td label={t.type}>{v.t.types[r.type]}</Td>
                          <Td label={t.chain}>{r.chain}</Td>
                          <Td label={t.token}>{r.symbol}</Td>
                          <Td label={t.count} num>
                            {r.count.toLocaleString('en')}
                          </Td>
                          <Td label={t.succeeded} num>
                            {r.succeeded.toLocaleString('en')}
                          </Td>
                          <Td label={t.successRate} num>
                            {pct(r.successRate)}
                          </Td>
                          <Td label={t.amount} num>
                            {r.amount} {r.symbol}
                          </Td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {totals ? (
                <p class="note">{fill(t.asOf, { time: utc(totals.at), seconds: TOTALS_TTL_MS / 1000 })}</p>
              ) : null}
            </section>
          </div>
        </Layout>,
      ),
    );
  });
}
