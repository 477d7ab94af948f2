import { Hono } from 'hono';
import { CHAINS } from '../../domain/chains.ts';
import { ORDER_STATUSES } from '../../domain/order.ts';
import { describeMerchants } from '../../services/manage-merchants.ts';
import { listTokens } from '../../services/resolve-token.ts';
import { type OrdersQuery, searchOrders } from '../../services/search-orders.ts';
import { type AdminContext, type AdminEnv, queryOf, viewOf } from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { Badge, Hash, Pager, Select, Td, Time } from '../ui.tsx';
import { fill, utc } from '../view.ts';

const FIELDS = ['q', 'merchant', 'type', 'chain', 'symbol', 'status', 'from', 'to'] as const;

/**
 * GET /orders → the orders list, newest first: search (`?q=` orderId, uid, address or txid) and
 * filters (merchant, type, chain, token, status, dates), with "older" paging that stays fast on a
 * large table (services/search-orders.ts). Each order links to its page.
 */
export function ordersRoutes(ctx: AdminContext) {
  return new Hono<AdminEnv>().get('/orders', async (c) => {
    const v = viewOf(c);
    const t = v.t.orders;
    const raw = queryOf(c);
    const query: OrdersQuery = Object.fromEntries(
      [...FIELDS, 'after'].map((k) => [k, raw[k]?.trim() || undefined]),
    );
    const [result, merchants, tokens] = await Promise.all([
      searchOrders(ctx.deps, query),
      describeMerchants(ctx.deps),
      listTokens(ctx.deps),
    ]);
    const keep = new URLSearchParams();
    for (const k of FIELDS) if (query[k]) keep.set(k, query[k] as string);
    const symbols = [...new Set(tokens.map((x) => x.symbol.toUpperCase()))].sort();
    const statusOptions = [
      {
        value: 'open',
        label: `${v.t.statuses.INIT} / ${v.t.statuses.PENDING} / ${v.t.statuses.PENDING_CONFIRMATION}`,
      },
      ...ORDER_STATUSES.map((s) => ({ value: s, label: v.t.statuses[s] })),
    ];
    return c.html(
      toHtml(
        <Layout v={v} title={t.title}>
          <h1>{t.title}</h1>
          <section class="card">
            <form method="get" action={`${v.base}/orders`} class="filters">
              <div class="wide">
                <label for="f-q">
                  {t.search} <span class="sub">{t.searchHelp}</span>
                </label>
                <input
                  id="f-q"
                  name="q"
                  type="search"
                  value={query.q ?? ''}
                  autocomplete="off"
                  spellcheck={false}
                />
              </div>
              <Select
                name="merchant"
                label={t.merchant}
                value={query.merchant}
                anyLabel={v.t.any}
                options={merchants.map((m) => ({
                  value: m.merchantId,
                  label: m.name ? `${m.name} (${m.merchantId})` : m.merchantId,
                }))}
              />
              <Select
                name="type"
                label={t.type}
                value={query.type}
                anyLabel={v.t.any}
                options={[
                  { value: 'COLLECTION', label: v.t.types.COLLECTION },
                  { value: 'PAYOUT', label: v.t.types.PAYOUT },
                ]}
              />
              <Select
                name="chain"
                label={t.chain}
                value={query.chain}
                anyLabel={v.t.any}
                options={CHAINS.map((ch) => ({ value: ch, label: ch }))}
              />
              <Select
                name="symbol"
                label={t.symbol}
                value={query.symbol?.toUpperCase()}
                anyLabel={v.t.any}
                options={symbols.map((s) => ({ value: s, label: s }))}
              />
              <Select
                name="status"
                label={t.status}
                value={query.status}
                anyLabel={v.t.any}
                options={statusOptions}
              />
              <div>
                <label for="f-from">{t.from}</label>
                <input id="f-from" name="from" type="date" value={query.from ?? ''} />
              </div>
              <div>
                <label for="f-to">{t.to}</label>
                <input id="f-to" name="to" type="date" value={query.to ?? ''} />
              </div>
              <div class="actions">
                <button type="submit">{v.t.apply}</button>
                <a href={`${v.base}/orders`}>{v.t.clear}</a>
              </div>
            </form>
          </section>
          <section class="card">
            {result.orders.length === 0 ? (
              <p id="orders-empty">{t.empty}</p>
            ) : (
              <div class="scroll">
                <table class="stack" id="orders">
                  <thead>
                    <tr>
                      <th>{t.created}</th>
                      <th>{t.order}</th>
                      <th>{t.type}</th>
                      <th>{t.chain}</th>
                      <th class="num">{t.amount}</th>
                      <th>{t.status}</th>
                      <th>{t.tx}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.orders.map((o) => (
                      <tr data-order={o.id}>
                        <Td label={t.created}>
                          <Time ms={o.createdAt} />
                        </Td>
                        <Td label={t.order}>
                          <a href={`${v.base}/orders/${o.id}`} class="mono">
                            {o.orderId}
                          </a>
                          <span class="sub">{o.merchantName ?? o.merchantId}</span>
                        </Td>
                        <Td label={t.type}>{v.t.types[o.type]}</Td>
                        <Td label={t.chain}>
                          {o.chain} · {o.symbol}
                        </Td>
                        <Td label={t.amount} num>
                          {o.amount}
                        </Td>
                        <Td label={t.status}>
                          <Badge s={o.status} label={v.t.statuses[o.status]} />
                        </Td>
                        <Td label={t.tx}>
                          <Hash value={o.transaction?.txid} />
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {result.partial && result.lookedBackTo !== null ? (
              <p class="notice warn">{fill(v.t.partial, { time: utc(result.lookedBackTo) })}</p>
            ) : null}
            <Pager
              v={v}
              path={`${v.base}/orders`}
              keep={keep}
              shown={result.orders.length}
              after={query.after}
              next={result.next}
              partial={result.partial}
            />
          </section>
        </Layout>,
      ),
    );
  });
}
