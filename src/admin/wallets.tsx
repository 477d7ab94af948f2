import type { SharedCache } from '../lib/shared-cache.ts';
import type { HotWalletHealth } from '../services/hot-wallet-health.ts';
import { Badge, Hash, Td } from './ui.tsx';
import { fill, type View } from './view.ts';

/** How long a page waits for a fresh computation before it shows what it has. */
const WAIT_MS = 1500;

/**
 * A cached value for a page: a fresh computation is started when the stored one is old, and the
 * page waits for it at most WAIT_MS (a slow node or a large table never holds the page); then the
 * last value, however old, or null when there is none yet.
 */
export async function readWithin<T>(cache: SharedCache<T> | null): Promise<{ at: number; data: T } | null> {
  if (!cache) return null;
  const fresh = cache.get();
  fresh.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), WAIT_MS);
  });
  try {
    return (await Promise.race([fresh.catch(() => null), timeout])) ?? cache.peek();
  } finally {
    clearTimeout(timer);
  }
}

/** The hot-wallet table: address, balances, the fee of one payout and how many the native coin pays. */
export function WalletsTable(props: {
  v: View;
  wallets: { at: number; data: HotWalletHealth[] } | null;
  connected: boolean;
}) {
  const { v } = props;
  const t = v.t.wallets;
  if (!props.connected) return <p class="note">{t.notConnected}</p>;
  if (!props.wallets) return <p class="note">{t.reading}</p>;
  return (
    <>
      <div class="scroll">
        <table class="stack" id="wallets">
          <thead>
            <tr>
              <th>{v.t.overview.chain}</th>
              <th>{t.address}</th>
              <th>{t.balances}</th>
              <th class="num">{t.fee}</th>
              <th class="num">{t.covers}</th>
            </tr>
          </thead>
          <tbody>
            {props.wallets.data.map((w) => (
              <tr data-chain={w.chain}>
                <Td label={v.t.overview.chain}>
                  <strong>{w.chain}</strong>
                  {w.low && w.nativeSymbol ? (
                    <>
                      {' '}
                      <Badge s="bad" label={fill(t.low, { symbol: w.nativeSymbol })} />
                    </>
                  ) : null}
                  {w.problem ? <span class="sub">{w.problem}</span> : null}
                </Td>
                <Td label={t.address}>
                  <Hash value={w.address} />
                </Td>
                <Td label={t.balances}>
                  {w.balances.map((b) => (
                    <span class="sub">
                      {b.amount ?? '?'} {b.symbol}
                    </span>
                  ))}
                </Td>
                <Td label={t.fee} num>
                  {w.feePerPayout ? `${w.feePerPayout} ${w.nativeSymbol ?? ''}` : '—'}
                </Td>
                <Td label={t.covers} num>
                  {w.payoutsCovered === null
                    ? '—'
                    : fill(t.payouts, {
                        n: w.payoutsCovered > 10_000 ? '10,000+' : w.payoutsCovered.toLocaleString('en'),
                      })}
                </Td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="note">{fill(t.readAt, { time: new Date(props.wallets.at).toISOString().slice(11, 19) })}</p>
    </>
  );
}

/** The hot-wallet section of a page (overview, money). */
export function WalletsSection(props: {
  v: View;
  wallets: { at: number; data: HotWalletHealth[] } | null;
  connected: boolean;
}) {
  return (
    <section class="card">
      <h2>{props.v.t.wallets.title}</h2>
      <p class="note">{props.v.t.wallets.help}</p>
      <WalletsTable v={props.v} wallets={props.wallets} connected={props.connected} />
    </section>
  );
}
