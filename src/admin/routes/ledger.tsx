import { Hono } from 'hono';
import { AppError } from '../../domain/errors.ts';
import { browseLedger, type LedgerPage } from '../../services/browse-ledger.ts';
import { adjustLedger } from '../../services/manage-ledger.ts';
import { listTokens } from '../../services/resolve-token.ts';
import { BalancesTable } from '../balances.tsx';
import { type AdminContext, type AdminEnv, field, requireAdmin, viewOf } from '../context.ts';
import { Csrf, Layout, toHtml } from '../layout.tsx';
import { Done, Pager, Td, Time } from '../ui.tsx';
import { fill, type View } from '../view.ts';

/** The longest reason an adjustment may give. */
const REASON_MAX = 300;

/** A movement of nothing (`0.00`, `+0.000`) reads as a dash. */
const nothing = (amount: string) => /^[+-]?0(\.0+)?$/.test(amount);

/** The adjustment form (`kassa ledger adjust`): token, signed amount, required reason. */
function AdjustForm(props: { v: View; page: LedgerPage; tokens: { chain: string; symbol: string }[] }) {
  const { v, page } = props;
  const t = v.t.ledger;
  return (
    <section class="card" id="adjust">
      <h2>{t.adjust}</h2>
      <p class="note">{t.adjustHelp}</p>
      <form method="post" action={`${v.base}/money/merchants/${page.merchant.id}/adjust`} class="filters">
        <Csrf v={v} />
        <input type="hidden" name="lastAdjustment" value={page.lastAdjustment ?? ''} />
        <div>
          <label for="a-token">{t.token}</label>
          <select id="a-token" name="token" required>
            <option value="">{v.t.dash}</option>
            {props.tokens.map((x) => (
              <option value={`${x.chain}:${x.symbol}`}>
                {x.chain} · {x.symbol}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="a-amount">{t.amount}</label>
          <input id="a-amount" name="amount" required autocomplete="off" placeholder="+100.00" />
        </div>
        <div class="wide">
          <label for="a-reason">{t.reason}</label>
          <input id="a-reason" name="reason" required maxlength={REASON_MAX} autocomplete="off" />
        </div>
        <div class="actions">
          <button type="submit">{t.submit}</button>
        </div>
      </form>
    </section>
  );
}

/**
 * GET /money/merchants?merchant=M → to that merchant's ledger (the money page's merchant picker).
 * GET /money/merchants/:id → one merchant's balances and its ledger, newest first, paged
 * (`?after=`), each entry with the order that caused it or the operator's reason; admins get the
 * adjustment form. POST /money/merchants/:id/adjust → records a top-up or correction with
 * `kassa ledger adjust`'s rules (signed amount in the token's decimals, a reason, never below
 * zero); the form carries the merchant's newest adjustment, so submitting it twice adjusts once.
 */
export function ledgerRoutes(ctx: AdminContext) {
  const { deps } = ctx;
  return new Hono<AdminEnv>()
    .get('/money/merchants', (c) => {
      const v = viewOf(c);
      const id = c.req.query('merchant')?.trim();
      if (!id) throw new AppError('validation', 'Choose a merchant.');
      return c.redirect(`${v.base}/money/merchants/${encodeURIComponent(id)}`, 303);
    })
    .get('/money/merchants/:id', async (c) => {
      const v = viewOf(c);
      const t = v.t.ledger;
      const after = c.req.query('after')?.trim() || undefined;
      const page = await browseLedger(deps, { merchantId: c.req.param('id'), after });
      const admin = v.session.role === 'admin';
      const tokens = admin ? await listTokens(deps) : [];
      const name = page.merchant.name ?? page.merchant.id;
      const m = v.t.money;
      return c.html(
        toHtml(
          <Layout v={v} title={fill(t.title, { name })}>
            <h1>
              {fill(t.title, { name })} <span class="sub mono">{page.merchant.id}</span>
            </h1>
            <Done v={v} done={c.req.query('done')} />
            <section class="card">
              <h2>{t.balances}</h2>
              {page.balances.length === 0 ? (
                <p>{m.noBalances}</p>
              ) : (
                <BalancesTable v={v} balances={page.balances} />
              )}
            </section>
            {admin && !after ? <AdjustForm v={v} page={page} tokens={tokens} /> : null}
            <section class="card">
              <h2>{t.entries}</h2>
              {page.entries.length === 0 ? (
                <p>{t.noEntries}</p>
              ) : (
                <div class="scroll">
                  <table class="stack" id="entries">
                    <thead>
                      <tr>
                        <th>{t.time}</th>
                        <th>{t.kind}</th>
                        <th>{v.t.orders.chain}</th>
                        <th class="num">{t.available}</th>
                        <th class="num">{t.frozen}</th>
                        <th>{t.cause}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.entries.map((e) => (
                        <tr data-entry={e.id} data-kind={e.kind}>
                          <Td label={t.time}>
                            <Time ms={Date.parse(e.createdAt)} />
                          </Td>
                          <Td label={t.kind}>
                            {(v.t.ledgerKinds as Record<string, string>)[e.kind] ?? e.kind}
                          </Td>
                          <Td label={v.t.orders.chain}>
                            {e.chain} · {e.symbol}
                          </Td>
                          <Td label={t.available} num>
                            {nothing(e.available) ? v.t.dash : e.available}
                          </Td>
                          <Td label={t.frozen} num>
                            {nothing(e.frozen) ? v.t.dash : e.frozen}
                          </Td>
                          <Td label={t.cause}>
                            {e.orderId ? (
                              <a
                                href={`${v.base}/orders?q=${encodeURIComponent(e.orderId)}&merchant=${page.merchant.id}`}
                                class="mono"
                              >
                                {e.orderId}
                              </a>
                            ) : null}
                            {e.reason ? <span class="sub">{e.reason}</span> : null}
                          </Td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <Pager
                v={v}
                path={`${v.base}/money/merchants/${page.merchant.id}`}
                keep={new URLSearchParams()}
                shown={page.entries.length}
                after={after}
                next={page.next}
                partial={false}
              />
            </section>
            <p>
              <a href={`${v.base}/money`}>{t.back}</a>
            </p>
          </Layout>,
        ),
      );
    })
    .post('/money/merchants/:id/adjust', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const merchantId = c.req.param('id');
      const [chain = '', symbol = ''] = (await field(c, 'token')).split(':');
      const amount = (await field(c, 'amount')).replace(/\s+/g, '').replace('−', '-');
      const reason = (await field(c, 'reason')).trim();
      if (reason.length > REASON_MAX)
        throw new AppError('validation', `A reason is at most ${REASON_MAX} characters.`);
      const balance = await adjustLedger(deps, {
        merchantId,
        chain,
        symbol,
        amount,
        reason,
        expectLastAdjustment: (await field(c, 'lastAdjustment')) || null,
      });
      deps.logger.info(
        { admin: v.session.email, merchantId, chain: balance.chain, symbol: balance.symbol, amount, reason },
        'dashboard: ledger adjusted',
      );
      return c.redirect(`${v.base}/money/merchants/${merchantId}?done=adjusted`, 303);
    });
}
