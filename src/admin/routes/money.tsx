import { Hono } from 'hono';
import { type AdminContext, type AdminEnv, TOTALS_TTL_MS, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { NotYet, Td } from '../ui.tsx';
import { fill, utc } from '../view.ts';
import { readWithin, WalletsSection } from '../wallets.tsx';

/**
 * GET /money → where the money is: the hot wallets (read from the chains), what arrived on the
 * deposit addresses by chain and token (all still there: nothing is swept yet) with the
 * unattributed part, and, said plainly, what is not available yet (balances per merchant, sweeps,
 * reconciliation). Sums of a large table are computed in the background (the page waits 1.5 s at
 * most and says "counting" meanwhile); the page refreshes itself every 30 s with JavaScript on.
 */
export function moneyRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/money', async (c) => {
    const v = viewOf(c);
    const t = v.t.money;
    const [deposits, wallets] = await Promise.all([readWithin(ctx.deposits), readWithin(ctx.wallets)]);
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
            <section class="card">
              <h2>{t.reconciliation}</h2>
              <NotYet>{t.reconciliationNotYet}</NotYet>
            </section>
          </div>
        </Layout>,
      ),
    );
  });
}
