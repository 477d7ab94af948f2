import { isFinalStatus } from '../domain/order.ts';
import type { OrderDetail, TimelineEntry } from '../services/get-order-detail.ts';
import { PayoutDecisions } from './payout-decisions.tsx';
import { Badge, Td, Time } from './ui.tsx';
import type { View } from './view.ts';

/** A timeline entry's state in words: a status, a hold's kind, an operator's decision, or as stored. */
export function stateWords(v: View, kind: TimelineEntry['kind'], state: string): string {
  const words: Record<string, string> =
    kind === 'held' ? v.t.holds.kinds : kind === 'decided' ? v.t.holds.resolutions : v.t.statuses;
  return words[state] ?? state;
}

/**
 * A payout's holds (awaiting approval, held as stuck) with what the operator decided, and the
 * decision forms for an open one (admins; they come back to this page).
 */
export function OrderHolds({ v, d }: { v: View; d: OrderDetail }) {
  const t = v.t.order;
  const open = d.holds.find((h) => h.resolvedAt === null && !isFinalStatus(d.order.status));
  return (
    <section class="card" id="holds">
      <h2>{t.holds}</h2>
      {d.holds.length === 0 ? (
        <p class="note">{t.noHolds}</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th>{t.waitsSince}</th>
              <th>{v.t.order.type}</th>
              <th>{v.t.payouts.why}</th>
              <th>{t.decision}</th>
            </tr>
          </thead>
          <tbody>
            {d.holds.map((h) => (
              <tr data-hold={h.kind} data-resolution={h.resolution ?? 'open'}>
                <Td label={t.waitsSince}>
                  <Time ms={h.since} />
                </Td>
                <Td label={v.t.order.type}>
                  <Badge s={h.resolvedAt === null ? 'warn' : 'ok'} label={v.t.holds.kinds[h.kind]} />
                </Td>
                <Td label={v.t.payouts.why}>{h.reason}</Td>
                <Td label={t.decision}>
                  {h.resolvedAt === null ? (
                    t.waitingDecision
                  ) : (
                    <>
                      {stateWords(v, 'decided', h.resolution ?? '?')} <Time ms={h.resolvedAt} />
                      {h.note ? <span class="sub">{h.note}</span> : null}
                    </>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open ? (
        <PayoutDecisions
          v={v}
          id={d.order.id}
          orderId={d.order.orderId}
          hold={open.kind}
          back={`${v.base}/orders/${d.order.id}`}
        />
      ) : null}
    </section>
  );
}
