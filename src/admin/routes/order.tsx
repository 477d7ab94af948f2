import { Hono } from 'hono';
import { isFinalStatus } from '../../domain/order.ts';
import { getOrderDetail, type OrderDetail } from '../../services/get-order-detail.ts';
import { type AdminContext, type AdminEnv, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { OrderHolds, stateWords } from '../order-holds.tsx';
import { OrderLedger } from '../order-ledger.tsx';
import { ActionButton, Badge, Done, Hash, Td, Time } from '../ui.tsx';
import { fill, type View } from '../view.ts';

function Summary({ v, d }: { v: View; d: OrderDetail }) {
  const t = v.t.order;
  const o = d.order;
  const row = (label: string, value: unknown) => (
    <>
      <dt>{label}</dt>
      <dd>{value as string}</dd>
    </>
  );
  return (
    <dl class="facts">
      {row(t.internalId, <span class="mono">{o.id}</span>)}
      {row(
        t.merchant,
        d.merchant
          ? `${d.merchant.name ?? ''} ${d.merchant.id} (${d.merchant.kind}, ${d.merchant.status})`
          : o.merchantId,
      )}
      {o.uid ? row(t.uid, <span class="mono">{o.uid}</span>) : null}
      {row(t.type, v.t.types[o.type])}
      {row(t.chainToken, `${o.chain} · ${o.symbol}`)}
      {row(t.contract, o.tokenContract ? <span class="mono">{o.tokenContract}</span> : t.native)}
      {row(t.requested, `${d.amounts.requested} ${o.symbol}`)}
      {o.type === 'COLLECTION' ? row(t.received, `${d.amounts.received} ${o.symbol}`) : null}
      {row(t.actual, d.amounts.actual ? `${d.amounts.actual} ${o.symbol}` : v.t.dash)}
      {row(t.fee, o.fee)}
      {row(o.type === 'COLLECTION' ? t.depositAddress : t.hotWallet, <span class="mono">{o.address}</span>)}
      {o.receiveAddress ? row(t.receiveAddress, <span class="mono">{o.receiveAddress}</span>) : null}
      {row(t.created, <Time ms={o.createdAt} />)}
      {row(t.expires, <Time ms={o.expiresAt} />)}
      {o.reason ? row(t.reason, o.reason) : null}
      {row(
        t.lastTx,
        o.transaction ? (
          <>
            <Hash value={o.transaction.txid} href={d.explorerUrl} />{' '}
            <span class="sub">{fill(t.confirmations, { n: o.transaction.confirmedNum })}</span>
          </>
        ) : (
          v.t.dash
        ),
      )}
      {o.type === 'COLLECTION'
        ? row(
            t.checkout,
            d.checkoutUrl ? (
              <a href={d.checkoutUrl} target="_blank" rel="noopener noreferrer" id="checkout-link">
                {d.checkoutUrl.replace(/sign=[0-9a-f]+/, 'sign=…')}
              </a>
            ) : (
              t.checkoutNone
            ),
          )
        : null}
    </dl>
  );
}

function Webhooks({ v, d }: { v: View; d: OrderDetail }) {
  const t = v.t.order;
  if (d.webhooks.length === 0) return <p class="note">{t.noWebhooks}</p>;
  const admin = v.session?.role === 'admin';
  return (
    <>
      {d.webhooks.map((e) => (
        <div class="event" data-event={e.eventId}>
          <header>
            <div>
              <strong>{e.notifyType}</strong> <Badge s={e.status} label={v.t.webhooks.statuses[e.status]} />{' '}
              <span class="sub mono">{e.eventId}</span>
              <span class="sub">
                <Time ms={e.createdAt} />
                {e.nextAttemptAt
                  ? ` · ${fill(t.nextAttempt, { time: new Date(e.nextAttemptAt).toISOString().slice(11, 19) })}`
                  : ''}
                {e.deliveredAt
                  ? ` · ${fill(t.deliveredAt, { time: new Date(e.deliveredAt).toISOString().slice(11, 19) })}`
                  : ''}
              </span>
            </div>
            {admin ? (
              <ActionButton
                v={v}
                action={`${v.base}/webhooks/${e.eventId}/resend`}
                label={t.resend}
                fields={{ back: `${v.base}/orders/${d.order.id}` }}
              />
            ) : null}
          </header>
          {e.attempts.length === 0 ? (
            <p class="note">{t.neverTried}</p>
          ) : (
            <table class="stack attempts">
              <thead>
                <tr>
                  <th>{t.attempt}</th>
                  <th class="num">{t.statusCode}</th>
                  <th class="num">{t.latency}</th>
                  <th>{t.error}</th>
                </tr>
              </thead>
              <tbody>
                {e.attempts.map((a) => (
                  <tr class="attempt">
                    <Td label={t.attempt}>
                      <Time ms={a.attemptedAt} />
                    </Td>
                    <Td label={t.statusCode} num>
                      {a.statusCode ?? t.noAnswer}
                    </Td>
                    <Td label={t.latency} num>
                      {a.latencyMs} ms
                    </Td>
                    <Td label={t.error}>{a.error ?? ''}</Td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </>
  );
}

/**
 * GET /orders/:id → one order: summary (amounts, addresses, last transaction with its explorer
 * link, the checkout link), timeline, the transfers that paid it, the payout transactions signed
 * for it, a payout's holds with the operator's decisions (and the forms for an open one), what it
 * moved on the merchant's ledger, and its webhooks with every attempt and a resend button
 * (admins). An order that is not final refreshes itself every 5 s with JavaScript on.
 */
export function orderRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/orders/:id', async (c) => {
    const v = viewOf(c);
    const t = v.t.order;
    const d = await getOrderDetail(ctx.deps, c.req.param('id'));
    const o = d.order;
    const final = isFinalStatus(o.status);
    return c.html(
      toHtml(
        <Layout v={v} title={fill(t.title, { orderId: o.orderId })} live={!final}>
          <h1>
            {fill(t.title, { orderId: o.orderId })} <Badge s={o.status} label={v.t.statuses[o.status]} />
          </h1>
          <Done v={v} done={c.req.query('done')} />
          <div id="live" data-every={final ? '0' : '5'} data-status={o.status}>
            <section class="card">
              <h2>{t.summary}</h2>
              <Summary v={v} d={d} />
            </section>
            <section class="card">
              <h2>{t.timeline}</h2>
              <ol class="timeline">
                {d.timeline.map((e) => (
                  <li data-kind={e.kind}>
                    <Time ms={e.at} />
                    <span>
                      {fill(t.kinds[e.kind], { state: stateWords(v, e.kind, e.state) })}
                      {e.detail ? <span class="sub">{e.detail}</span> : null}
                    </span>
                  </li>
                ))}
              </ol>
              <p class="note">{t.timelineNote}</p>
            </section>
            {o.type === 'COLLECTION' ? (
              <section class="card">
                <h2>{t.transfers}</h2>
                {d.transfers.length === 0 ? (
                  <p class="note">{t.noTransfers}</p>
                ) : (
                  <table class="stack" id="transfers">
                    <thead>
                      <tr>
                        <th>{v.t.orders.tx}</th>
                        <th>{t.from}</th>
                        <th class="num">{v.t.orders.amount}</th>
                        <th class="num">{t.block}</th>
                        <th>{t.state}</th>
                        <th>{t.seen}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {d.transfers.map((x) => (
                        <tr>
                          <Td label={v.t.orders.tx}>
                            <Hash value={x.txid} href={x.explorerUrl} />
                          </Td>
                          <Td label={t.from}>
                            <Hash value={x.from} />
                          </Td>
                          <Td label={v.t.orders.amount} num>
                            {x.amount}
                          </Td>
                          <Td label={t.block} num>
                            {x.blockNum}
                          </Td>
                          <Td label={t.state}>
                            <Badge s={x.status} />
                          </Td>
                          <Td label={t.seen}>
                            <Time ms={x.seenAt} />
                          </Td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            ) : (
              <section class="card">
                <h2>{t.attempts}</h2>
                {d.attempts.length === 0 ? (
                  <p class="note">{t.noAttempts}</p>
                ) : (
                  <table class="stack" id="attempts">
                    <thead>
                      <tr>
                        <th>{v.t.orders.tx}</th>
                        <th>{t.slot}</th>
                        <th>{t.state}</th>
                        <th class="num">{t.block}</th>
                        <th>{t.signed}</th>
                        <th>{t.error}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {d.attempts.map((a) => (
                        <tr>
                          <Td label={v.t.orders.tx}>
                            <Hash value={a.txHash} href={a.explorerUrl} />
                          </Td>
                          <Td label={t.slot}>
                            {a.slot ?? (a.nonce === null ? v.t.dash : `nonce ${a.nonce}`)}
                          </Td>
                          <Td label={t.state}>
                            <Badge s={a.status} />
                          </Td>
                          <Td label={t.block} num>
                            {a.blockNum ?? v.t.dash}
                          </Td>
                          <Td label={t.signed}>
                            <Time ms={a.signedAt} />
                          </Td>
                          <Td label={t.error}>{a.error ?? ''}</Td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            )}
            {o.type === 'PAYOUT' ? <OrderHolds v={v} d={d} /> : null}
            <OrderLedger v={v} d={d} />
            <section class="card" id="webhooks">
              <h2>{t.webhooks}</h2>
              <Webhooks v={v} d={d} />
            </section>
          </div>
        </Layout>,
      ),
    );
  });
}
