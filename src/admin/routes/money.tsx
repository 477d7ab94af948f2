import { Hono } from 'hono';
import { lastReconciliationSummary } from '../../services/reconcile/last-run.ts';
import { type AdminContext, type AdminEnv, TOTALS_TTL_MS, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Badge, NotYet, Td } from '../ui.tsx';
import { fill, utc } from '../view.ts';
import { readWithin, WalletsSection } from '../wallets.tsx';

/**
 * GET /money → where the money is: the hot wallets (read from the chains), what arrived on the
 * deposit addresses by chain and token (all still there: nothing is swept yet) with the
 * unattributed part, the last reconciliation (`kassa reconcile` or the worker's) with its
 * unexplained differences, and, said plainly, what is not available yet (balances per merchant, sweeps). Sums of a large table are computed in the background (the page waits 1.5 s at
 * most and says "counting" meanwhile); the page refreshes itself every 30 s with JavaScript on.
 */
export function moneyRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/money', async (c) => {
    const v = viewOf(c);
    const t = v.t.money;
    const [deposits, wallets, reconciled] = await Promise.all([
      readWithin(ctx.deposits),
      readWithin(ctx.wallets),
      lastReconciliationSummary(ctx.deps),
    ]);
    return c.html(
      toHtml(
        <Layout v={v} title={t.title} live>
          <h1>{t.title}</h1>
          <div id="live" data-every="30">
            <section class="card">
              <h2>{t.ledger}</h2>
              <NotYet>{t.ledgerNotYet}</NotYet>
            </section>
            <WalletsSection v={v} wallets={wallets} connected={ctx.wallets !== null} />
            <section class="card">
              <h2>{t.deposits}</h2>
              <p class="note">{t.depositsHelp}</p>
              {!deposits ? (
                <p class="note">{v.t.overview.counting}</p>
              ) : deposits.data.length === 0 ? (
                <p>{t.noDeposits}</p>
              ) : (
                <table class="stack" id="deposit-totals">
                  <thead>
                    <tr>
                      <th>{v.t.overview.chain}</th>
                      <th>{v.t.overview.token}</th>
                      <th class="num">{t.received}</th>
                      <th class="num">{t.unattributed}</th>
                      <th class="num">{t.transfers}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {deposits.data.map((d) => (
                      <tr>
                        <Td label={v.t.overview.chain}>{d.chain}</Td>
                        <Td label={v.t.overview.token}>{d.symbol}</Td>
                        <Td label={t.received} num>
                          {d.received}
                        </Td>
                        <Td label={t.unattributed} num>
                          {d.unattributed}
                        </Td>
                        <Td label={t.transfers} num>
                          {d.transfers.toLocaleString('en')}
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <p class="note">
                {deposits
                  ? fill(v.t.overview.asOf, { time: utc(deposits.at), seconds: TOTALS_TTL_MS / 1000 })
                  : null}{' '}
                <a href={`${v.base}/deposits`}>{t.seeDeposits}</a>
              </p>
            </section>
            <section class="card">
              <h2>{t.sweeps}</h2>
              <NotYet>{t.sweepsNotYet}</NotYet>
            </section>
            <section class="card" id="reconciliation">
              <h2>{t.reconciliation}</h2>
              {!reconciled ? (
                <p class="note">{t.reconciliationNone}</p>
              ) : (
                <>
                  <p>
                    <Badge
                      s={reconciled.ok ? 'ok' : 'bad'}
                      label={reconciled.ok ? 'ok' : reconciled.unexplained > 0 ? 'unexplained' : 'incomplete'}
                    />{' '}
                    {fill(t.reconciliationLast, {
                      time: utc(reconciled.finishedAt),
                      addresses: reconciled.addresses.toLocaleString('en'),
                      unexplained: reconciled.unexplained,
                      inFlight: reconciled.inFlight,
                    })}
                  </p>
                  {reconciled.unchecked.map((u) => (
                    <p role="alert">{fill(t.reconciliationUnchecked, { chain: u.chain, error: u.error })}</p>
                  ))}
                  {reconciled.differences.length === 0 ? (
                    reconciled.ok ? (
                      <p class="note">{t.reconciliationClean}</p>
                    ) : null
                  ) : (
                    <>
                      <p role="alert">{t.reconciliationProblems}</p>
                      <table class="stack" id="reconcile-differences">
                        <thead>
                          <tr>
                            <th>{v.t.overview.chain}</th>
                            <th>{t.address}</th>
                            <th>{t.role}</th>
                            <th>{v.t.overview.token}</th>
                            <th class="num">{t.expected}</th>
                            <th class="num">{t.actual}</th>
                            <th class="num">{t.difference}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {reconciled.differences.map((d) => (
                            <tr>
                              <Td label={v.t.overview.chain}>{d.chain}</Td>
                              <Td label={t.address}>
                                <span class="mono">{d.address}</span>
                              </Td>
                              <Td label={t.role}>{d.role}</Td>
                              <Td label={v.t.overview.token}>{d.symbol}</Td>
                              <Td label={t.expected} num>
                                {d.expected}
                              </Td>
                              <Td label={t.actual} num>
                                {d.actual}
                              </Td>
                              <Td label={t.difference} num>
                                {d.difference}
                              </Td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </>
                  )}
                </>
              )}
            </section>
          </div>
        </Layout>,
      ),
    );
  });
}
