import { probeWrite } from '../db/repositories/ops.ts';
import { type ChainProgress, chainProgress, type OpsDeps } from './chain-progress.ts';

/** What GET /readyz reports. */
export interface Readiness {
  ready: boolean;
  /** Epoch ms of the check. */
  checkedAt: number;
  database: { writable: boolean; ms: number; error: string | null };
  chains: ChainProgress[];
}

/**
 * Whether this installation can take and settle payments now: the database accepts a real write
 * (an upsert into `settings`), and every enabled chain's scanner is within its lag budget
 * (chain-progress.ts). Never throws: a failed write is reported as not writable.
 */
export async function checkReadiness(deps: OpsDeps): Promise<Readiness> {
  const checkedAt = deps.clock.now();
  const started = performance.now();
  let error: string | null = null;
  try {
    probeWrite(deps.db, checkedAt);
  } catch (e) {
    error = (e as Error).message;
  }
  const database = {
    writable: error === null,
    ms: Math.round((performance.now() - started) * 100) / 100,
    error,
  };
  const chains = await chainProgress(deps);
  return { ready: database.writable && chains.every((c) => c.ready), checkedAt, database, chains };
}
