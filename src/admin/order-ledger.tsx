import type { OrderDetail } from '../services/get-order-detail.ts';
import { Td, Time } from './ui.tsx';
import type { View } from './view.ts';

/** What the order moved on its merchant's ledger, oldest first. */
export function OrderLedger({ v, d }: { v: View; d: OrderDetail }) {
  const t = v.t.order;
  const l = v.t.ledger;
  return (
    <section class="card" id="ledger">
      <h2>{t.ledger}</h2>
      <p class="note">
        {t.ledgerHelp}{' '}
        <a href={`${v.base}/money/merchants/${d.order.merchantId}`}>{v.t.money.openLedger} →</a>
      </p>
      {d.ledger.length === 0 ? (
        <p class="note">{t.noLedger}</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th>{l.time}</th>
              <th>{l.kind}</th>
              <th class="num">{l.available}</th>
              <th class="num">{l.frozen}</th>
            </tr>
          </thead>
          <tbody>
            {d.ledger.map((e) => (
              <tr data-kind={e.kind}>
                <Td label={l.time}>
                  <Time ms={Date.parse(e.createdAt)} />
                </Td>
                <Td label={l.kind}>
                  {(v.t.ledgerKinds as Record<string, string>)[e.kind] ?? e.kind}
                  {e.reason ? <span class="sub">{e.reason}</span> : null}
                </Td>
                <Td label={l.available} num>
                  {e.available} {e.symbol}
                </Td>
                <Td label={l.frozen} num>
                  {e.frozen} {e.symbol}
                </Td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
