import { Hono } from 'hono';
import { AppError } from '../../domain/errors.ts';
import { decidePayout, PAYOUT_DECISIONS, type PayoutDecision } from '../../services/decide-payout.ts';
import { listOpenPayouts, OPEN_PAYOUTS_LIMIT, type OpenPayout } from '../../services/list-open-payouts.ts';
import { pausePayouts, resumePayouts } from '../../services/payout-pause.ts';
import { payoutSigning } from '../../services/payout-signing.ts';
import {
  type AdminContext,
  type AdminEnv,
  confirmed,
  doneAt,
  field,
  requireAdmin,
  viewOf,
} from '../context.ts';
import { Layout, toHtml } from '../layout.tsx';
import { PayoutDecisions, REASON_MAX } from '../payout-decisions.tsx';
import { Signing } from '../payout-signing.tsx';
import { Badge, Done, Hash, Td, Time } from '../ui.tsx';
import { fill, type View } from '../view.ts';

const DONE: Record<PayoutDecision, string> = {
  approve: 'approved',
  reject: 'rejected',
  retry: 'retried',
  fail: 'failed',
};

/** Who, what and where: the cells every payout table starts with. */
function PayoutCells({ v, p }: { v: View; p: OpenPayout }) {
  return (
    <>
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
      <Td label={v.t.payouts.toAddress}>
        <Hash value={p.order.receiveAddress} />
      </Td>
    </>
  );
}

/** The transactions signed for a payout: hash (explorer link), state, slot, error. */
function Transactions({ v, p }: { v: View; p: OpenPayout }) {
  if (p.attempts.length === 0) return <>{v.t.dash}</>;
  return (
    <>
      {p.attempts.map((a) => (
        <span class="sub" data-tx={a.txHash}>
          <Hash value={a.txHash} href={a.explorerUrl} /> <Badge s={a.status} />
          {a.slot ? ` ${a.slot}` : ''}
          {a.error ? ` ${a.error}` : ''}
        </span>
      ))}
    </>
  );
}

/** Payouts above the approval threshold, oldest first, with approve / reject for admins. */
function AwaitingApproval({ v, payouts }: { v: View; payouts: OpenPayout[] }) {
  const t = v.t.payouts;
  return (
    <section class="card" id="approval">
      <h2>
        {t.approval} ({payouts.length})
      </h2>
      <p class="note">{t.approvalHelp}</p>
      {payouts.length === 0 ? (
        <p>{t.approvalEmpty}</p>
      ) : (
        <div class="scroll">
          <table class="stack">
            <thead>
              <tr>
                <th>{v.t.orders.created}</th>
                <th>{v.t.orders.order}</th>
                <th>{v.t.orders.chain}</th>
                <th class="num">{v.t.orders.amount}</th>
                <th>{t.toAddress}</th>
                <th>{t.decide}</th>
              </tr>
            </thead>
            <tbody>
              {payouts.map((p) => (
                <tr data-order={p.order.id}>
                  <Td label={v.t.orders.created}>
                    <Time ms={p.order.createdAt} />
                    <span class="sub">
                      {v.t.order.expires} <Time ms={p.order.expiresAt} />
                    </span>
                  </Td>
                  <PayoutCells v={v} p={p} />
                  <Td label={t.decide}>
                    <PayoutDecisions v={v} id={p.order.id} orderId={p.order.orderId} hold="approval" />
                    {v.session?.role === 'admin' ? null : (
                      <Badge s="warn" label={v.t.order.waitingDecision} />
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Payouts held as stuck, one card each (the reason is long and the decision needs room): what it
 * pays and to whom, why it is held and since when, its transactions with their spend slots, and
 * retry / fail for admins.
 */
function Held({ v, payouts }: { v: View; payouts: OpenPayout[] }) {
  const t = v.t.payouts;
  return (
    <section class="card" id="held">
      <h2>
        {t.held} ({payouts.length})
      </h2>
      <p class="note">{t.heldHelp}</p>
      {payouts.length === 0 ? (
        <p>{t.heldEmpty}</p>
      ) : (
        payouts.map((p) => (
          <article class="event held" data-order={p.order.id}>
            <header>
              <div>
                <a href={`${v.base}/orders/${p.order.id}`} class="mono">
                  {p.order.orderId}
                </a>{' '}
                <span class="sub">{p.merchantName ?? p.order.merchantId}</span>
              </div>
              <strong>
                {p.order.amount} {p.order.symbol} · {p.order.chain}
              </strong>
            </header>
            <dl class="facts">
              <dt>{t.toAddress}</dt>
              <dd class="mono">{p.order.receiveAddress ?? v.t.dash}</dd>
              <dt>{t.since}</dt>
              <dd>
                <Time ms={p.hold?.since} />
              </dd>
              <dt>{t.why}</dt>
              <dd class="why">{p.hold?.reason ?? v.t.dash}</dd>
              <dt>{t.transactions}</dt>
              <dd>
                <Transactions v={v} p={p} />
              </dd>
            </dl>
            <PayoutDecisions v={v} id={p.order.id} orderId={p.order.orderId} hold="stuck" />
            {v.session?.role === 'admin' ? null : <Badge s="bad" label={v.t.order.waitingDecision} />}
          </article>
        ))
      )}
    </section>
  );
}

/**
 * GET /payouts → signing per chain (running or paused, with pause / resume), payouts awaiting
 * approval (approve / reject with a reason), payouts held as stuck with what Kassa knows (why,
 * the slot, the transactions; retry / fail with a reason), and the queue and those in flight,
 * oldest first, numbered in the order the worker signs them on each chain. Actions are for admins.
 * POST /payouts/:id/(approve|reject|retry|fail) → the decision, carried out by issue 11's services
 * (`decide-payout.ts`); back to `back` (an order's page) or this page with a note.
 * POST /payouts/pause, /payouts/resume (`chain`, or every chain) → stops or restarts signing.
 */
export function payoutsRoutes(ctx: AdminContext) {
  const { deps } = ctx;
  return new Hono<AdminEnv>()
    .get('/payouts', async (c) => {
      const v = viewOf(c);
      const t = v.t.payouts;
      const [payouts, signing] = await Promise.all([listOpenPayouts(deps), payoutSigning(deps)]);
      const approval = payouts.filter((p) => p.hold?.kind === 'approval');
      const held = payouts.filter((p) => p.hold?.kind === 'stuck');
      const queue = payouts.filter((p) => p.hold === null);
      const paused = signing.filter((s) => s.paused).map((s) => s.chain);
      return c.html(
        toHtml(
          <Layout v={v} title={t.title}>
            <h1>{t.title}</h1>
            <Done v={v} done={c.req.query('done')} />
            <Held v={v} payouts={held} />
            <AwaitingApproval v={v} payouts={approval} />
            <Signing v={v} chains={signing} />
            <section class="card">
              <h2>{t.queue}</h2>
              <p class="note">{t.queueHelp}</p>
              {paused.length > 0 ? (
                <p class="notice warn" id="paused-note">
                  {fill(t.pausedNote, { chains: paused.join(', ') })}
                </p>
              ) : null}
              {queue.length === 0 ? (
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
                      {queue.map((p) => (
                        <tr data-order={p.order.id}>
                          <Td label={t.position} num>
                            {p.queuePosition ?? v.t.dash}
                          </Td>
                          <Td label={v.t.orders.created}>
                            <Time ms={p.order.createdAt} />
                          </Td>
                          <PayoutCells v={v} p={p} />
                          <Td label={v.t.orders.status}>
                            <Badge s={p.order.status} label={v.t.statuses[p.order.status]} />
                          </Td>
                          <Td label={t.transactions}>
                            <Transactions v={v} p={p} />
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
    })
    .post('/payouts/:verb{pause|resume}', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const pause = c.req.param('verb') === 'pause';
      const chain = (await field(c, 'chain')).trim().toUpperCase() || undefined;
      const paused = await (pause ? pausePayouts : resumePayouts)(deps, chain);
      deps.logger[pause ? 'warn' : 'info'](
        { admin: v.session.email, chain: chain ?? 'all', paused },
        pause ? 'dashboard: payouts paused' : 'dashboard: payouts resumed',
      );
      return c.redirect(`${v.base}/payouts?done=${pause ? 'paused' : 'resumed'}`, 303);
    })
    .post('/payouts/:id/:decision', async (c) => {
      requireAdmin(c);
      const v = viewOf(c);
      const decision = c.req.param('decision') as PayoutDecision;
      if (!PAYOUT_DECISIONS.includes(decision)) throw new AppError('not_found');
      if (decision === 'approve' || decision === 'retry') await confirmed(c);
      const reason = (await field(c, 'reason')).trim();
      if (reason.length > REASON_MAX)
        throw new AppError('validation', `A reason is at most ${REASON_MAX} characters.`);
      const decided = await decidePayout(deps, { id: c.req.param('id'), decision, reason });
      deps.logger.info(
        {
          admin: v.session.email,
          action: decision,
          orderId: decided.orderId,
          merchantId: decided.merchantId,
          ...(reason ? { reason } : {}),
        },
        'dashboard: payout decided',
      );
      return c.redirect(doneAt(v, await field(c, 'back'), `${v.base}/payouts`, DONE[decision]), 303);
    });
}
