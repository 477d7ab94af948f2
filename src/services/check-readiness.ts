import { type ChainProgress, chainProgress } from './chain-progress.ts';
import type { Deps } from './deps.ts';

/** A write probe younger than this is reused, so a flood of probes costs at most one write a second. */
export const WRITE_PROBE_REUSE_MS = 1000;

/** The database part of a readiness check. */
export interface DatabaseCheck {
  writable: boolean;
  ms: number;
  error: string | null;
  /** Epoch ms of the write probe this result comes from. */
  probedAt: number;
}

/** What GET /readyz reports. */
export interface Readiness {
  ready: boolean;
  /** Epoch ms of the check. */
  checkedAt: number;
  database: DatabaseCheck;
  chains: ChainProgress[];
}

async function probe(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'health'>,
  now: number,
): Promise<DatabaseCheck> {
  const started = performance.now();
  let error: string | null = null;
  try {
    await deps.db.probeWrite(now);
  } catch (e) {
    error = (e as Error).message;
  }
  return {
    writable: error === null,
    ms: Math.round((performance.now() - started) * 100) / 100,
    error,
    probedAt: now,
  };
}

/**
 * Whether this installation can take and settle payments now: the database accepts a real write
 * (an upsert into `settings`), and every enabled chain's scanner is within its lag budget
 * (chain-progress.ts). The chains are judged afresh on every call (reads only); the write probe of
 * `previous` is reused while younger than WRITE_PROBE_REUSE_MS. Never throws: a failed write, or
 * checkpoints that cannot be read, is reported as a database that is not writable.
 */
export async function checkReadiness(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'health'>,
  previous?: Readiness | null,
): Promise<Readiness> {
  const checkedAt = deps.clock.now();
  const age = previous ? checkedAt - previous.database.probedAt : Number.POSITIVE_INFINITY;
  const database =
    previous && age >= 0 && age < WRITE_PROBE_REUSE_MS ? previous.database : await probe(deps, checkedAt);
  let chains: ChainProgress[];
  try {
    chains = await chainProgress(deps);
  } catch (e) {
    // The checkpoints could not be read (PostgreSQL out of reach): the database is what is wrong.
    const error = (e as Error).message;
    return { ready: false, checkedAt, database: { ...database, writable: false, error }, chains: [] };
  }
  return { ready: database.writable && chains.every((c) => c.ready), checkedAt, database, chains };
}
