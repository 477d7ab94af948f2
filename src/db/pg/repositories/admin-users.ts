import { and, asc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { AdminSessionRecord, AdminUserRecord } from '../../repositories/admin-users.ts';
import { type PgDb, type PgExecutor, pgTransaction } from '../client.ts';
import { adminSessions } from '../schema/admin-sessions.ts';
import { adminUsers } from '../schema/admin-users.ts';

// Dashboard users on PostgreSQL: the same functions as ../../repositories/admin-users.ts. Emails are
// compared exactly (`=`), as SQLite's BINARY `=` does: callers store and look up the normalised
// (trimmed, lower-cased) address.

/** Stores a new user; false when the email (or id) is taken, nothing written. One INSERT … ON CONFLICT DO NOTHING (a). */
export async function insertAdminUser(ex: PgExecutor, record: AdminUserRecord): Promise<boolean> {
  const result = await ex.insert(adminUsers).values(record).onConflictDoNothing();
  return (result.rowCount ?? 0) > 0;
}

/** One user by (normalised) email, or null. */
export async function findAdminUserByEmail(ex: PgExecutor, email: string): Promise<AdminUserRecord | null> {
  const [row] = await ex.select().from(adminUsers).where(eq(adminUsers.email, email));
  return row ?? null;
}

/** One user by id, or null. */
export async function findAdminUserById(ex: PgExecutor, id: string): Promise<AdminUserRecord | null> {
  const [row] = await ex.select().from(adminUsers).where(eq(adminUsers.id, id));
  return row ?? null;
}

/** Every user, oldest first. */
export async function listAdminUsers(ex: PgExecutor): Promise<AdminUserRecord[]> {
  return ex.select().from(adminUsers).orderBy(asc(adminUsers.createdAt), asc(adminUsers.id));
}

/**
 * Counts one wrong password or code on an account, in one write: the count grows by one, and each
 * time it reaches a multiple of `failures` the account is locked until `now + lockMs`. Returns the
 * new count and lock. One UPDATE … RETURNING (a) that adds to the stored count: concurrent failures
 * queue on the row and each one counts, so a burst of wrong guesses cannot skip the lock.
 */
export async function recordSignInFailure(
  ex: PgExecutor,
  input: { id: string; now: number; failures: number; lockMs: number },
): Promise<{ failedSignIns: number; lockedUntil: number | null }> {
  const next = sql`${adminUsers.failedSignIns} + 1`;
  const [row] = await ex
    .update(adminUsers)
    .set({
      failedSignIns: next,
      // A multiple of `failures` locks (never with failures = 0, as on SQLite where x % 0 is NaN).
      lockedUntil: sql`case when (${next}) % nullif(${input.failures}::bigint, 0) = 0
        then ${input.now + input.lockMs}::bigint else ${adminUsers.lockedUntil} end`,
      updatedAt: input.now,
    })
    .where(eq(adminUsers.id, input.id))
    .returning({ failedSignIns: adminUsers.failedSignIns, lockedUntil: adminUsers.lockedUntil });
  return row ?? { failedSignIns: 0, lockedUntil: null };
}

/**
 * Starts a session after a right password, in one transaction: with `clearFailures` the failure
 * count and lock are cleared, expired sessions of everyone are dropped, and the session is stored.
 * Each statement is safe alone (a); the transaction makes them land together.
 */
export async function startAdminSession(
  db: PgDb,
  input: { session: AdminSessionRecord; now: number; clearFailures: boolean },
): Promise<void> {
  await pgTransaction(db, async (tx) => {
    if (input.clearFailures)
      await tx
        .update(adminUsers)
        .set({ failedSignIns: 0, lockedUntil: null, updatedAt: input.now })
        .where(eq(adminUsers.id, input.session.userId));
    await tx.delete(adminSessions).where(lt(adminSessions.expiresAt, input.now));
    await tx.insert(adminSessions).values(input.session);
  });
}

/**
 * Finishes a second-factor sign-in, in one transaction: takes TOTP time step `step` only if it is
 * later than the last one accepted (so a code works once, even with two tabs racing), replaces the
 * half-signed-in session by a new full one (a new id at the privilege change), and clears the
 * failure count. Returns false, changing nothing, when the step was already used. The step is taken
 * by a guarded UPDATE (a): a second tab with the same code waits for the first's row lock, then
 * finds the step no longer later than the last and takes nothing.
 */
export async function completeSecondFactor(
  db: PgDb,
  input: {
    userId: string;
    step: number;
    previousSessionId: string;
    session: AdminSessionRecord;
    now: number;
  },
): Promise<boolean> {
  return pgTransaction(db, async (tx) => {
    const taken = await tx
      .update(adminUsers)
      .set({ totpLastStep: input.step, failedSignIns: 0, lockedUntil: null, updatedAt: input.now })
      .where(
        and(
          eq(adminUsers.id, input.userId),
          or(isNull(adminUsers.totpLastStep), lt(adminUsers.totpLastStep, input.step)),
        ),
      );
    if ((taken.rowCount ?? 0) === 0) return false;
    await tx.delete(adminSessions).where(eq(adminSessions.id, input.previousSessionId));
    await tx.insert(adminSessions).values(input.session);
    return true;
  });
}

/**
 * Changes a user's password and ends all their sessions (the old password may be known to someone
 * else), clearing any lock, in one transaction. False when there is no such user. The UPDATE locks
 * the user's row first (b), so a sign-in that clears failures waits for the new password to commit.
 */
export async function replaceAdminPassword(
  db: PgDb,
  input: { id: string; passwordHash: string; now: number },
): Promise<boolean> {
  return pgTransaction(db, async (tx) => {
    const changed = await tx
      .update(adminUsers)
      .set({ passwordHash: input.passwordHash, failedSignIns: 0, lockedUntil: null, updatedAt: input.now })
      .where(eq(adminUsers.id, input.id));
    await tx.delete(adminSessions).where(eq(adminSessions.userId, input.id));
    return (changed.rowCount ?? 0) > 0;
  });
}

/** Stores (or clears, with null) the TOTP key a user is setting up, not yet confirmed. One UPDATE (a). */
export async function setPendingTotp(
  ex: PgExecutor,
  input: { id: string; sealed: string | null; now: number },
): Promise<void> {
  await ex
    .update(adminUsers)
    .set({ totpPendingSealed: input.sealed, updatedAt: input.now })
    .where(eq(adminUsers.id, input.id));
}

/**
 * Turns the second factor on with the pending key, once a code from it was right: the key becomes
 * the account's, `step` is recorded as used, and every other session of the user ends (they were
 * signed in with the password alone). Guarded on the pending key still being the one confirmed.
 * Returns false, changing nothing, when it is not. The guard is the UPDATE's WHERE (a), re-checked
 * on the newest row when another write got there first.
 */
export async function enableTotp(
  db: PgDb,
  input: { id: string; pendingSealed: string; step: number; keepSessionId: string; now: number },
): Promise<boolean> {
  return pgTransaction(db, async (tx) => {
    const changed = await tx
      .update(adminUsers)
      .set({
        totpSealed: input.pendingSealed,
        totpPendingSealed: null,
        totpLastStep: input.step,
        updatedAt: input.now,
      })
      .where(and(eq(adminUsers.id, input.id), eq(adminUsers.totpPendingSealed, input.pendingSealed)));
    if ((changed.rowCount ?? 0) === 0) return false;
    await tx
      .delete(adminSessions)
      .where(and(eq(adminSessions.userId, input.id), ne(adminSessions.id, input.keepSessionId)));
    return true;
  });
}

/** Turns the second factor off (the operator's recovery when a phone is lost). One UPDATE (a). */
export async function disableTotp(ex: PgExecutor, input: { id: string; now: number }): Promise<boolean> {
  const result = await ex
    .update(adminUsers)
    .set({ totpSealed: null, totpPendingSealed: null, totpLastStep: null, updatedAt: input.now })
    .where(eq(adminUsers.id, input.id));
  return (result.rowCount ?? 0) > 0;
}

/** Removes a user and every session of theirs, in one transaction. False when there was no such user. */
export async function deleteAdminUser(db: PgDb, id: string): Promise<boolean> {
  return pgTransaction(db, async (tx) => {
    await tx.delete(adminSessions).where(eq(adminSessions.userId, id));
    const result = await tx.delete(adminUsers).where(eq(adminUsers.id, id));
    return (result.rowCount ?? 0) > 0;
  });
}
