import type { Deps } from '../deps.ts';
import type { HoldingLine, ReconcileReport } from './report.ts';

/** The last reconciliation in short, for the dashboard. */
export interface LastReconciliation {
  id: string;
  finishedAt: number;
  ok: boolean;
  addresses: number;
  unexplained: number;
  inFlight: number;
  /** Chains that could not be read, with the reason. */
  unchecked: { chain: string; error: string }[];
  /** The unexplained differences (at most 20). */
  differences: Pick<
    HoldingLine,
    'chain' | 'address' | 'role' | 'symbol' | 'expected' | 'actual' | 'difference'
  >[];
}

/** The latest stored run of `kassa reconcile` (or the worker's), or null before the first. */
export async function lastReconciliationSummary(deps: Pick<Deps, 'db'>): Promise<LastReconciliation | null> {
  const run = await deps.db.lastReconciliation();
  if (!run) return null;
  const report = JSON.parse(run.report) as ReconcileReport;
  return {
    id: run.id,
    finishedAt: run.finishedAt,
    ok: report.ok,
    addresses: run.addresses,
    unexplained: run.unexplained,
    inFlight: report.inFlight,
    unchecked: report.chains.flatMap((c) => (c.error ? [{ chain: c.chain, error: c.error }] : [])),
    differences: report.differences
      .filter((d) => d.status === 'unexplained')
      .slice(0, 20)
      .map(({ chain, address, role, symbol, expected, actual, difference }) => ({
        chain,
        address,
        role,
        symbol,
        expected,
        actual,
        difference,
      })),
  };
}
