import { and, eq } from 'drizzle-orm';
import { type Db, writeTransactionAsync } from '../client.ts';
import { workerLeases } from '../schema/worker-leases.ts';

/** A worker lease as stored: who holds it, since when, and until when unless renewed (epoch ms). */
export interface WorkerLease {
  name: string;
  holder: string;
  acquiredAt: number;
  expiresAt: number;
}

/**
 * Takes or renews the lease `name` for `holder` until `now + ttlMs`, in one write transaction:
 * granted when nobody holds it, when `holder` already does (a renewal: `acquiredAt` is kept), or
 * when the current holder's lease ran out (`expiresAt <= now`: a take-over, `acquiredAt` = now).
 * Refused, writing nothing, while another holder's lease runs. Returns the lease as it stands
 * afterwards: granted when its holder is `holder`.
 */
export async function acquireWorkerLease(
  db: Db,
  input: { name: string; holder: string; now: number; ttlMs: number },
): Promise<WorkerLease> {
  return writeTransactionAsync(db, () => {
    const current = db.select().from(workerLeases).where(eq(workerLeases.name, input.name)).get();
    if (current && current.holder !== input.holder && current.expiresAt > input.now) return current;
    const lease: WorkerLease = {
      name: input.name,
      holder: input.holder,
      acquiredAt: current?.holder === input.holder ? current.acquiredAt : input.now,
      expiresAt: input.now + input.ttlMs,
    };
    db.insert(workerLeases)
      .values(lease)
      .onConflictDoUpdate({
        target: workerLeases.name,
        set: { holder: lease.holder, acquiredAt: lease.acquiredAt, expiresAt: lease.expiresAt },
      })
      .run();
    return lease;
  });
}

/** Gives the lease `name` back if `holder` has it (a standby may take it at once); true when it did. */
export async function releaseWorkerLease(db: Db, input: { name: string; holder: string }): Promise<boolean> {
  return writeTransactionAsync(
    db,
    () =>
      db
        .delete(workerLeases)
        .where(and(eq(workerLeases.name, input.name), eq(workerLeases.holder, input.holder)))
        .run().changes > 0,
  );
}

/** The lease `name` as stored (whether or not it ran out), or null when nobody has taken it. */
export async function findWorkerLease(db: Db, name: string): Promise<WorkerLease | null> {
  return db.select().from(workerLeases).where(eq(workerLeases.name, name)).get() ?? null;
}
