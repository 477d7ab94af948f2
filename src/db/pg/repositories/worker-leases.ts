import { sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import type { PgExecutor } from '../client.ts';

// The worker lease on PostgreSQL (the SQLite twin and the port: ../../repositories/worker-leases.ts,
// ../../store/worker-leases.ts, from branch i16lease). Plain SQL on worker_leases (name, holder,
// acquired_at, expires_at), so this file stands before the pg-core table joins src/db/pg/schema.

/** A worker lease as stored (the shape of the port's WorkerLease): who holds it, since when, until when (epoch ms). */
export interface PgWorkerLease {
  name: string;
  holder: string;
  acquiredAt: number;
  expiresAt: number;
}

/** A row of plain SQL (snake_case; int8 already numbers, ../client.ts) as a lease. */
function leaseOf(row: Record<string, unknown>): PgWorkerLease {
  return {
    name: String(row.name),
    holder: String(row.holder),
    acquiredAt: row.acquired_at as number,
    expiresAt: row.expires_at as number,
  };
}

/** Rounds of "refused, then gone before it could be read" before giving up (each needs another process's release). */
const MAX_ROUNDS = 10;

/**
 * Takes or renews the lease `name` for `holder` until `now + ttlMs`: granted when nobody holds it,
 * when `holder` already does (a renewal: `acquiredAt` is kept), or when the current holder's lease
 * ran out (`expiresAt <= now`: a take-over, `acquiredAt` = now). Refused, writing nothing, while
 * another holder's lease runs; the lease as it stands afterwards comes back (granted when its holder
 * is `holder`). Kept correct by (a) one statement, `INSERT … ON CONFLICT DO UPDATE … WHERE (holder =
 * me OR expired) RETURNING`: of processes racing for a free or expired lease, the others wait on the
 * row the first wrote, then find it held and get no row. A refusal then reads the holder in a new
 * statement (read committed: it sees the winner); if the lease was released in between, it asks again.
 */
export async function acquireWorkerLease(
  db: PgExecutor,
  input: { name: string; holder: string; now: number; ttlMs: number },
): Promise<PgWorkerLease> {
  const { name, holder, now } = input;
  const expiresAt = now + input.ttlMs;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const granted = await db.execute(sql`
      INSERT INTO worker_leases AS l (name, holder, acquired_at, expires_at)
      VALUES (${name}, ${holder}, ${now}, ${expiresAt})
      ON CONFLICT (name) DO UPDATE SET
        holder = excluded.holder,
        acquired_at = CASE WHEN l.holder = excluded.holder THEN l.acquired_at ELSE excluded.acquired_at END,
        expires_at = excluded.expires_at
      WHERE l.holder = excluded.holder OR l.expires_at <= ${now}
      RETURNING name, holder, acquired_at, expires_at`);
    if (granted.rows[0]) return leaseOf(granted.rows[0]);
    const current = await findWorkerLease(db, name);
    if (current) return current;
  }
  throw new AppError('busy', `The worker lease ${name} changed hands too often to be read; try again.`);
}

/** Gives the lease `name` back if `holder` has it (a standby may take it at once); true when it did. (a) one guarded DELETE. */
export async function releaseWorkerLease(
  db: PgExecutor,
  input: { name: string; holder: string },
): Promise<boolean> {
  const gone = await db.execute(
    sql`DELETE FROM worker_leases WHERE name = ${input.name} AND holder = ${input.holder} RETURNING name`,
  );
  return gone.rows.length > 0;
}

/** The lease `name` as stored (whether or not it ran out), or null when nobody has taken it. */
export async function findWorkerLease(db: PgExecutor, name: string): Promise<PgWorkerLease | null> {
  const found = await db.execute(
    sql`SELECT name, holder, acquired_at, expires_at FROM worker_leases WHERE name = ${name}`,
  );
  return found.rows[0] ? leaseOf(found.rows[0]) : null;
}
