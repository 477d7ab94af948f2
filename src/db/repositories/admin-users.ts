import { and, asc, eq, isNull, lt, ne, or } from 'drizzle-orm';
import { type Db, writeTransaction } from '../client.ts';
import { adminSessions } from '../schema/admin-sessions.ts';
import { adminUsers } from '../schema/admin-users.ts';

export type AdminRole = 'admin' | 'viewer';

/** A dashboard user as stored (secrets sealed or hashed). */
export type AdminUserRecord = typeof adminUsers.$inferSelect;

/** Stores a new user; false when the email is taken (nothing written). */
export function insertAdminUser(db: Db, record: AdminUserRecord): boolean {
  return db.insert(adminUsers).values(record).onConflictDoNothing().run().changes > 0;
}

/** One user by (normalised) email, or null. */
export function findAdminUserByEmail(db: Db, email: string): AdminUserRecord | null {
  return db.select().from(adminUsers).where(eq(adminUsers.email, email)).get() ?? null;
}

/** One user by id, or null. */
export function findAdminUserById(db: Db, id: string): AdminUserRecord | null {
  return db.select().from(adminUsers).where(eq(adminUsers.id, id)).get() ?? null;
}

/** Every user, oldest first. */
export function listAdminUsers(db: Db): AdminUserRecord[] {
  return db.select().from(adminUsers).orderBy(asc(adminUsers.createdAt)).all();
}

/**
 * Counts one wrong password or code on an account, in one write: the count grows by one, and each
 * time it reaches a multiple of `failures` the account is locked until `now + lockMs`. Returns the
 * new count and lock.
 */
export function recordSignInFailure(
  db: Db,
  input: { id: string; now: number; failures: number; lockMs: number },
): { failedSignIns: number; lockedUntil: number | null } {
  return writeTransaction(db, () => {
    const user = findAdminUserById(db, input.id);
    if (!user) return { failedSignIns: 0, lockedUntil: null };
    const failedSignIns = user.failedSignIns + 1;
    const lockedUntil = failedSignIns % input.failures === 0 ? input.now + input.lockMs : user.lockedUntil;
    db.update(adminUsers)
      .set({ failedSignIns, lockedUntil, updatedAt: input.now })
      .where(eq(adminUsers.id, input.id))
      .run();
    return { failedSignIns, lockedUntil };
  });
}

/** A new session row (the id is the hash of the cookie token). */
export type AdminSessionRecord = typeof adminSessions.$inferSelect;

/**
 * Starts a session after a right password, in one transaction: with `clearFailures` the failure
 * count and lock are cleared, expired sessions of everyone are dropped, and the session is stored.
 */
export function startAdminSession(
  db: Db,
  input: { session: AdminSessionRecord; now: number; clearFailures: boolean },
): void {
  writeTransaction(db, () => {
    if (input.clearFailures)
      db.update(adminUsers)
        .set({ failedSignIns: 0, lockedUntil: null, updatedAt: input.now })
        .where(eq(adminUsers.id, input.session.userId))
        .run();
    db.delete(adminSessions).where(lt(adminSessions.expiresAt, input.now)).run();
    db.insert(adminSessions).values(input.session).run();
  });
}

/**
 * Finishes a second-factor sign-in, in one transaction: takes TOTP time step `step` only if it is
 * later than the last one accepted (so a code works once, even with two tabs racing), replaces the
 * half-signed-in session by a new full one (a new id at the privilege change), and clears the
 * failure count. Returns false, changing nothing, when the step was already used.
 */
export function completeSecondFactor(
  db: Db,
  input: {
    userId: string;
    step: number;
    previousSessionId: string;
    session: AdminSessionRecord;
    now: number;
  },
): boolean {
  return writeTransaction(db, () => {
    const taken = db
      .update(adminUsers)
      .set({ totpLastStep: input.step, failedSignIns: 0, lockedUntil: null, updatedAt: input.now })
      .where(
        and(
          eq(adminUsers.id, input.userId),
          or(isNull(adminUsers.totpLastStep), lt(adminUsers.totpLastStep, input.step)),
        ),
      )
      .run().changes;
    if (taken === 0) return false;
    db.delete(adminSessions).where(eq(adminSessions.id, input.previousSessionId)).run();
    db.insert(adminSessions).values(input.session).run();
    return true;
  });
}

/**
 * Changes a user's password and ends all their sessions (the old password may be known to someone
 * else), clearing any lock, in one transaction. False when there is no such user.
 */
export function replaceAdminPassword(
  db: Db,
  input: { id: string; passwordHash: string; now: number },
): boolean {
  return writeTransaction(db, () => {
    const changed = db
      .update(adminUsers)
      .set({ passwordHash: input.passwordHash, failedSignIns: 0, lockedUntil: null, updatedAt: input.now })
      .where(eq(adminUsers.id, input.id))
      .run().changes;
    db.delete(adminSessions).where(eq(adminSessions.userId, input.id)).run();
    return changed > 0;
  });
}

/** Stores (or clears, with null) the TOTP key a user is setting up, not yet confirmed. */
export function setPendingTotp(db: Db, input: { id: string; sealed: string | null; now: number }): void {
  db.update(adminUsers)
    .set({ totpPendingSealed: input.sealed, updatedAt: input.now })
    .where(eq(adminUsers.id, input.id))
    .run();
}

/**
 * Turns the second factor on with the pending key, once a code from it was right: the key becomes
 * the account's, `step` is recorded as used, and every other session of the user ends (they were
 * signed in with the password alone). Guarded on the pending key still being the one confirmed.
 * Returns false, changing nothing, when it is not.
 */
export function enableTotp(
  db: Db,
  input: { id: string; pendingSealed: string; step: number; keepSessionId: string; now: number },
): boolean {
  return writeTransaction(db, () => {
    const changed = db
      .update(adminUsers)
      .set({
        totpSealed: input.pendingSealed,
        totpPendingSealed: null,
        totpLastStep: input.step,
        updatedAt: input.now,
      })
      .where(and(eq(adminUsers.id, input.id), eq(adminUsers.totpPendingSealed, input.pendingSealed)))
      .run().changes;
    if (changed === 0) return false;
    db.delete(adminSessions)
      .where(and(eq(adminSessions.userId, input.id), ne(adminSessions.id, input.keepSessionId)))
      .run();
    return true;
  });
}

/** Turns the second factor off (the operator's recovery when a phone is lost). */
export function disableTotp(db: Db, input: { id: string; now: number }): boolean {
  return (
    db
      .update(adminUsers)
      .set({ totpSealed: null, totpPendingSealed: null, totpLastStep: null, updatedAt: input.now })
      .where(eq(adminUsers.id, input.id))
      .run().changes > 0
  );
}

/** Removes a user and every session of theirs. False when there was no such user. */
export function deleteAdminUser(db: Db, id: string): boolean {
  return writeTransaction(db, () => {
    db.delete(adminSessions).where(eq(adminSessions.userId, id)).run();
    return db.delete(adminUsers).where(eq(adminUsers.id, id)).run().changes > 0;
  });
}
