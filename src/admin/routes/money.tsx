import { Hono } from 'hono';
import { type BalanceView, ledgerBalances } from '../../services/manage-ledger.ts';
import { describeMerchants } from '../../services/manage-merchants.ts';
import { lastReconciliationSummary } from '../../services/reconcile/last-run.ts';
import { BalancesTable } from '../balances.tsx';
import { type AdminContext, type AdminEnv, TOTALS_TTL_MS, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Badge, NotYet, Td } from '../ui.tsx';
import { fill, utc, type View } from '../view.ts';
import { readWithin, WalletsSection } from '../wallets.tsx';

/** Every merchant's balances from the ledger (available, frozen, total per chain and token). */
function Balances(props: { v: View; balances: BalanceView[]; names: Map<string, string | null> }) {
  const { v } = props;
  const t = v.t.money;
  return (
    <section class="card" id="balances">
      <h2>{t.ledger}</h2>
      <p class="note">{t.ledgerHelp}</p>
      {props.names.size > 0 ? (
        <form method="get" action={`${v.base}/money/merchants`} class="filters">
          <div>
            <label for="f-merchant">{t.merchant}</label>
            <select id="f-merchant" name="merchant" required>
              {[...props.names].map(([id, name]) => (
                <option value={id}>{name ? `${name} (${id})` : id}</option>
              ))}
            </select>
          </div>
          <div class="actions">
            <button type="submit" class="quiet">
              {t.openLedger}
            </button>
          </div>
        </form>
      ) : null}
      {props.balances.length === 0 ? (
        <p>{t.noBalances}</p>
      ) : (
        <BalancesTable v={v} balances={props.balances} names={props.names} />
      )}
    </section>
  );
}

/**
 * GET /money → where the money is: every merchant's balances from the ledger (each merchant links
 * to its ledger page), the hot wallets (read from the chains), what arrived on the deposit
 * addresses by chain and token with the unattributed part, the last reconciliation (`kassa
 * reconcile` or the worker's) with its unexplained differences, and, said plainly, what is not
 * available on this page yet (sweeps). Sums of a large table are computed in the background (the page waits 1.5 s at
 * most and says "counting" meanwhile); the page refreshes itself every 30 s with JavaScript on.
 */
export function moneyRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/money', async (c) => {
    const v = viewOf(c);
    const t = v.t.money;
    const [deposits, wallets, balances, merchants, reconciled] = await Promise.all([
      readWithin(ctx.deposits),
      readWithin(ctx.wallets),
      ledgerBalances(ctx.deps),
      describeMerchants(ctx.deps),
      lastReconciliationSummary(ctx.deps),
    ]);
    const names = new Map(merchants.map((m) => [m.merchantId, m.name]));
    return c.html(
      toHtml(
        <Layout v={v} title={t.title} live>
          <h1>{t.title}</h1>
          <div id="live" data-every="30">
            <Balances v={v} balances={balances} names={names} />
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
