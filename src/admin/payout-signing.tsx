import type { ChainSigning } from '../services/payout-signing.ts';
import { ActionButton, Badge, Td } from './ui.tsx';
import type { View } from './view.ts';

/** The signing switch of every enabled chain, with pause / resume for admins. */
export function Signing({ v, chains }: { v: View; chains: ChainSigning[] }) {
  const t = v.t.payouts;
  const admin = v.session?.role === 'admin';
  return (
    <section class="card" id="signing">
      <h2>{t.signing}</h2>
      <p class="note">{t.signingHelp}</p>
      {chains.length === 0 ? (
        <p>{t.noChains}</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th>{v.t.orders.chain}</th>
              <th>{v.t.orders.status}</th>
              {admin ? <th>{v.t.merchants.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {chains.map((s) => (
              <tr data-chain={s.chain} data-paused={s.paused ? 'yes' : 'no'}>
                <Td label={v.t.orders.chain}>
                  <strong>{s.chain}</strong>
                </Td>
                <Td label={v.t.orders.status}>
                  <Badge s={s.paused ? 'warn' : 'ok'} label={s.paused ? t.signingPaused : t.signingRuns} />
                </Td>
                {admin ? (
                  <Td label={v.t.merchants.actions}>
                    <ActionButton
                      v={v}
                      action={`${v.base}/payouts/${s.paused ? 'resume' : 'pause'}`}
                      label={s.paused ? t.resume : t.pause}
                      fields={{ chain: s.chain }}
                    />
                  </Td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && chains.length > 1 ? (
        <div class="actions">
          <ActionButton v={v} action={`${v.base}/payouts/pause`} label={t.pauseAll} />
          <ActionButton v={v} action={`${v.base}/payouts/resume`} label={t.resumeAll} />
        </div>
      ) : null}
    </section>
  );
}
