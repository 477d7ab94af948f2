import { Hono } from 'hono';
import { listOpenPayouts, OPEN_PAYOUTS_LIMIT, type OpenPayout } from '../../services/list-open-payouts.ts';
import { type AdminContext, type AdminEnv, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Badge, Hash, NotYet, Td, Time } from '../ui.tsx';
import { fill, type View } from '../view.ts';

/**
 * The actions a payout row offers. None exist yet: approve, reject, retry and fail arrive with the
 * merchant ledger; they will be POST forms (ActionButton) returned from here for the rows they
 * apply to, so the table needs no other change.
 */
function payoutActions(_v: View, _p: OpenPayout) {
  return null;
}

/**
 * GET /payouts → payouts not final yet, oldest first: the queue (numbered in the order the worker
 * signs them on each chain) and those in flight with every transaction signed for them and its
 * explorer link; a link to all payouts; and, said plainly, what is not available yet (approvals,
 * held payouts).
 */
export function payoutsRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/payouts', async (c) => {
    const v = viewOf(c);
    const t = v.t.payouts;
    const payouts = await listOpenPayouts(ctx.deps);
    return c.html(
      toHtml(
        <Layout v={v} title={t.title}>
          <h1>{t.title}</h1>
          <NotYet>{t.notYet}</NotYet>
          <section class="card">
            <h2>{t.queue}</h2>
            <p class="note">{t.queueHelp}</p>
            {payouts.length === 0 ? (
              <p>{t.empty}</p>
            ) : (
              <div class="scroll">
                <table class="stack" id="payouts">
                  <thead>
                    <tr>
                      <th class="num">{t.position}</th>
                      <th>{v.t.orders.created}</th>
                      <th>{v.t.orders.order}</th>
                      <th>{v.t.orders.chain}</th>
                      <th class="num">{v.t.orders.amount}</th>
                      <th>{t.toAddress}</th>
                      <th>{v.t.orders.status}</th>
                      <th>{t.transactions}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {payouts.map((p) => (
                      <tr data-order={p.order.id}>
                        <Td label={t.position} num>
                          {p.queuePosition ?? v.t.dash}
                        </Td>
                        <Td label={v.t.orders.created}>
                          <Time ms={p.order.createdAt} />
                        </Td>
                        <Td label={v.t.orders.order}>
                          <a href={`${v.base}/orders/${p.order.id}`} class="mono">
                            {p.order.orderId}
                          </a>
                          <span class="sub">{p.merchantName ?? p.order.merchantId}</span>
                        </Td>
                        <Td label={v.t.orders.chain}>
                          {p.order.chain} · {p.order.symbol}
                        </Td>
                        <Td label={v.t.orders.amount} num>
                          {p.order.amount}
                        </Td>
                        <Td label={t.toAddress}>
                          <Hash value={p.order.receiveAddress} />
                        </Td>
                        <Td label={v.t.orders.status}>
                          <Badge s={p.order.status} label={v.t.statuses[p.order.status]} />
                          {payoutActions(v, p)}
                        </Td>
                        <Td label={t.transactions}>
                          {p.attempts.length === 0
                            ? v.t.dash
                            : p.attempts.map((a) => (
                                <span class="sub">
                                  <Hash value={a.txHash} href={a.explorerUrl} /> <Badge s={a.status} />
                                  {a.error ? ` ${a.error}` : ''}
                                </span>
                              ))}
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {payouts.length >= OPEN_PAYOUTS_LIMIT ? (
              <p class="note">{fill(t.limited, { n: OPEN_PAYOUTS_LIMIT })}</p>
            ) : null}
            <p>
              <a href={`${v.base}/orders?type=PAYOUT`}>{t.recent} →</a>
            </p>
          </section>
        </Layout>,
      ),
    );
  });
}
