import type { OrderStatRow } from '../db/store.ts';

import { formatAmount } from '../domain/money.ts';
import { nextTurn } from '../lib/next-turn.ts';
import type { Deps } from './deps.ts';

/** The periods of the overview. */
export const PERIODS = ['today', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];

/** Orders of one type, chain and token in one period. */
export interface TotalsRow {
  type: 'COLLECTION' | 'PAYOUT';
  chain: string;
  symbol: string;
  /** Orders created in the period. */
  count: number;
  /** Of those, how many succeeded and how many are final (SUCCESS, EXPIRED or FAILED). */
  succeeded: number;
  finished: number;
  /** Money moved by the successful ones (received for collections, paid for payouts), exact. */
  amount: string;
  /** succeeded / finished, or null when none is final yet. */
  successRate: number | null;
}

/** Orders read per slice (10-30 ms here); between slices the event loop serves other requests. */
const SLICE = 1_000;
const DAY_MS = 86_400_000;

/** When each period starts, for a given now: today from 00:00 UTC, the others as rolling windows. */
export function periodStarts(now: number): Record<Period, number> {
  return { today: now - (now % DAY_MS), '7d': now - 7 * DAY_MS, '30d': now - 30 * DAY_MS };
}

interface Sum {
  count: number;
  succeeded: number;
  finished: number;
  base: bigint;
  decimals: number;
}

/**
 * Collections and payouts of the last 30 days by period, type, chain and token: count, successes,
 * success rate and the money of the successful ones (sums of base units as bigint, exact). Reads
 * the orders in slices of 1,000 through the creation-time index and yields to the event loop
 * between slices, so the merchant API in the same process keeps answering while a large table is
 * added up.
 */
export async function orderTotals(deps: Pick<Deps, 'db' | 'clock'>): Promise<Record<Period, TotalsRow[]>> {
  const now = deps.clock.now();
  const starts = periodStarts(now);
  const sums: Record<Period, Map<string, Sum>> = { today: new Map(), '7d': new Map(), '30d': new Map() };
  const add = (period: Period, r: OrderStatRow) => {
    const key = `${r.type}|${r.chain}|${r.symbol}`;
    let s = sums[period].get(key);
    if (!s) {
      s = { count: 0, succeeded: 0, finished: 0, base: 0n, decimals: r.decimals };
      sums[period].set(key, s);
    }
    s.count++;
    if (r.status === 'SUCCESS') {
      s.succeeded++;
      s.base += BigInt(r.actualAmountBase ?? r.amountBase);
    }
    if (r.status === 'SUCCESS' || r.status === 'EXPIRED' || r.status === 'FAILED') s.finished++;
  };
  let after: { createdAt: number; id: string } | null = null;
  for (;;) {
    const rows = await deps.db.orderStatsSlice({ since: starts['30d'], after, limit: SLICE });
    for (const r of rows) {
      add('30d', r);
      if (r.createdAt >= starts['7d']) add('7d', r);
      if (r.createdAt >= starts.today) add('today', r);
    }
    const last = rows[rows.length - 1];
    if (rows.length < SLICE || !last) break;
    after = { createdAt: last.createdAt, id: last.id };
    await nextTurn();
  }
  const out = {} as Record<Period, TotalsRow[]>;
  for (const period of PERIODS) {
    out[period] = [...sums[period].entries()]
      .map(([key, s]) => {
        const [type, chain, symbol] = key.split('|') as [TotalsRow['type'], string, string];
        return {
          type,
          chain,
          symbol,
          count: s.count,
          succeeded: s.succeeded,
          finished: s.finished,
          amount: formatAmount(s.base, s.decimals),
          successRate: s.finished === 0 ? null : s.succeeded / s.finished,
        };
      })
      .sort(
        (a, b) =>
          a.type.localeCompare(b.type) || a.chain.localeCompare(b.chain) || a.symbol.localeCompare(b.symbol),
      );
  }
  return out;
}
