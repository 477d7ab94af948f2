import { Hono } from 'hono';
import { activeChain } from '../../config/active-chain.ts';
import { isChain } from '../../domain/chains.ts';
import { explorerLink } from '../../services/get-checkout.ts';
import { listUnattributedDeposits } from '../../services/list-deposits.ts';
import { type AdminContext, type AdminEnv, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Badge, Hash, Td, Time } from '../ui.tsx';

/**
 * GET /deposits → unattributed deposits, newest first: payments no order took (late, wrong token,
 * no open order), with the transaction's explorer link, for the operator to settle by hand.
 */
export function depositsRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/deposits', async (c) => {
    const v = viewOf(c);
    const t = v.t.deposits;
    const list = (await listUnattributedDeposits(ctx.deps)).reverse();
    const link = (chain: string, txid: string) =>
      isChain(chain) ? explorerLink(activeChain(ctx.deps.config, chain).explorerTx, txid) : null;
    return c.html(
      toHtml(
        <Layout v={v} title={t.title}>
          <h1>{t.title}</h1>
          <p class="note">{t.help}</p>
          <section class="card">
            {list.length === 0 ? (
              <p>{t.empty}</p>
            ) : (
              <div class="scroll">
                <table class="stack" id="deposits">
                  <thead>
                    <tr>
                      <th>{t.seen}</th>
                      <th>{v.t.overview.chain}</th>
                      <th class="num">{t.amount}</th>
                      <th>{t.txid}</th>
                      <th>{t.from}</th>
                      <th>{t.to}</th>
                      <th>{t.reason}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((d) => (
                      <tr>
                        <Td label={t.seen}>
                          <Time ms={Date.parse(d.seenAt)} />
                        </Td>
                        <Td label={v.t.overview.chain}>
                          {d.chain} · {d.symbol}
                        </Td>
                        <Td label={t.amount} num>
                          {d.amount}
                        </Td>
                        <Td label={t.txid}>
                          <Hash value={d.txid} href={link(d.chain, d.txid)} />
                        </Td>
                        <Td label={t.from}>
                          <Hash value={d.from} />
                        </Td>
                        <Td label={t.to}>
                          <Hash value={d.to} />
                        </Td>
                        <Td label={t.reason}>
                          <Badge
                            s={d.status}
                            label={
                              (t.reasons as Record<string, string>)[d.reason ?? ''] ?? d.reason ?? v.t.dash
                            }
                          />
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </Layout>,
      ),
    );
  });
}
