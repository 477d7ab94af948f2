import { CHAINS, familyOf } from '../domain/chains.ts';
import type { Deps } from './deps.ts';
import type { PrometheusText } from './prometheus-text.ts';
import { listTokens } from './resolve-token.ts';

/** Base units as a float for a metric (display only: money is never computed from it). */
const asNumber = (base: bigint, decimals: number) => Number(base) / 10 ** decimals;

/**
 * Sweeping in /metrics: sweeps per chain and status, what final sweeps moved per chain and token,
 * what deposit addresses still hold by the records (final or unattributed deposits not swept yet,
 * dust below `minAmount` included), and the operator's costs per chain and kind in native coin.
 */
export async function sweepMetrics(deps: Pick<Deps, 'db' | 'config'>, text: PrometheusText): Promise<void> {
  const totals = await deps.db.sweepTotals();
  text.family(
    'kassa_sweeps',
    'gauge',
    'Sweeps per chain and status (planned, gas_sent, gas_final, signed, broadcast, final, failed).',
    totals.flatMap((t) =>
      [...t.counts].map(([status, n]) => ({
        labels: { chain: t.chain, symbol: t.symbol, status },
        value: n,
      })),
    ),
  );
  text.family(
    'kassa_swept_amount_total',
    'counter',
    'What final sweeps moved to the hot wallet or treasury, per chain and token (token units).',
    totals.map((t) => ({
      labels: { chain: t.chain, symbol: t.symbol },
      value: asNumber(t.sweptBase, t.decimals),
    })),
  );
  const tokens = await listTokens(deps);
  const pending = new Map<string, { chain: string; symbol: string; value: number }>();
  for (const chain of CHAINS) {
    if (!tokens.some((t) => t.chain === chain)) continue;
    for (const c of await deps.db.sweepCandidates({ chain, family: familyOf(chain) })) {
      const decimals = tokens.find((t) => t.chain === chain && t.symbol === c.symbol)?.decimals;
      if (decimals === undefined) continue;
      const key = `${chain}/${c.symbol}`;
      const e = pending.get(key) ?? { chain, symbol: c.symbol, value: 0 };
      e.value += asNumber(c.unsweptBase, decimals);
      pending.set(key, e);
    }
  }
  text.family(
    'kassa_sweep_pending_amount',
    'gauge',
    'What deposit addresses of final orders and unattributed deposits still hold by the records, per chain and token (token units).',
    [...pending.values()].map((p) => ({ labels: { chain: p.chain, symbol: p.symbol }, value: p.value })),
  );
  text.family(
    'kassa_operator_costs_total',
    'counter',
    'What the operator paid to sweep, per chain and kind (gas_topup, energy, sweep_fee), in native coin.',
    (await deps.db.sumOperatorCosts()).map((c) => ({
      labels: { chain: c.chain, kind: c.kind, symbol: c.symbol },
      value: asNumber(c.amountBase, c.decimals),
    })),
  );
}
