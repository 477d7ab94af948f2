import { type ChainProgress, chainProgress } from './chain-progress.ts';
import type { Deps } from './deps.ts';
import { WORKER_LEASE } from './worker-lease.ts';

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

/**
 * Which `kassa worker` (or `kassa start`) process runs the jobs, as its lease in the database says:
 * for the operator, and not part of `ready` (a worker that stopped shows in the chains' progress).
 */
export interface WorkerCheck {
  /** The holder's id (host:pid:random, as its logs name it). */
  holder: string;
  /** Epoch ms since which it holds the lease. */
  acquiredAt: number;
  /** Epoch ms its lease runs out unless renewed (every 2 s while it lives). */
  expiresAt: number;
  /** Whether the lease still runs: false once a holder died and no other took over yet. */
  live: boolean;
}

/** What GET /readyz reports. */
export interface Readiness {
  ready: boolean;
  /** Epoch ms of the check. */
  checkedAt: number;
  database: DatabaseCheck;
  chains: ChainProgress[];
  /** The worker lease; null when no worker has held it (none started yet, or on a stopped one's release). */
  worker: WorkerCheck | null;
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
  let worker: WorkerCheck | null;
  try {
    chains = await chainProgress(deps);
    const lease = await deps.db.findWorkerLease(WORKER_LEASE);
    worker = lease && {
      holder: lease.holder,
      acquiredAt: lease.acquiredAt,
      expiresAt: lease.expiresAt,
      live: lease.expiresAt > checkedAt,
    };
  } catch (e) {
    // The checkpoints could not be read (PostgreSQL out of reach): the database is what is wrong.
    const error = (e as Error).message;
    return {
      ready: false,
      checkedAt,
      database: { ...database, writable: false, error },
      chains: [],
      worker: null,
    };
  }
  return { ready: database.writable && chains.every((c) => c.ready), checkedAt, database, chains, worker };
}
