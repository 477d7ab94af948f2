import type { AdminSessionWithUser } from '../repositories/admin-sessions.ts';
import type { AdminSessionRecord, AdminUserRecord } from '../repositories/admin-users.ts';

/** The dashboard's users and their sessions. Part of the Store port (../store.ts). */
export interface DashboardAccountStore {
  // Dashboard sessions (repositories/admin-sessions.ts)
  /** The session whose id (token hash) is `id`, with its user; null when there is none. */
  findAdminSession(id: string): Promise<AdminSessionWithUser | null>;
  /** Records activity on a session (callers do it at most once a minute). */
  touchAdminSession(id: string, now: number): Promise<void>;
  /** Ends one session. */
  deleteAdminSession(id: string): Promise<void>;
  /** Ends every session of a user, or every one but `exceptId`; returns how many ended. */
  deleteAdminSessionsOfUser(userId: string, exceptId?: string): Promise<number>;
  /** A user's sessions, newest first. */
  listAdminSessionsOfUser(userId: string): Promise<AdminSessionRecord[]>;
  // Dashboard users (repositories/admin-users.ts)
  /** Stores a new user; false when the email is taken (nothing written). */
  insertAdminUser(record: AdminUserRecord): Promise<boolean>;
  /** One user by (normalised) email, or null. */
  findAdminUserByEmail(email: string): Promise<AdminUserRecord | null>;
  /** One user by id, or null. */
  findAdminUserById(id: string): Promise<AdminUserRecord | null>;
  /** Every user, oldest first. */
  listAdminUsers(): Promise<AdminUserRecord[]>;
  /**
   * Counts one wrong password or code on an account, in one write: the count grows by one, and each
   * time it reaches a multiple of `failures` the account is locked until `now + lockMs`. Returns the
   * new count and lock.
   */
  recordSignInFailure(input: {
    id: string;
    now: number;
    failures: number;
    lockMs: number;
  }): Promise<{ failedSignIns: number; lockedUntil: number | null }>;
  /**
   * Starts a session after a right password, in one transaction: with `clearFailures` the failure
   * count and lock are cleared, expired sessions of everyone are dropped, and the session is stored.
   */
  startAdminSession(input: {
    session: AdminSessionRecord;
    now: number;
    clearFailures: boolean;
  }): Promise<void>;
  /**
   * Finishes a second-factor sign-in, in one transaction: takes TOTP time step `step` only if it is
   * later than the last one accepted (so a code works once, even with two tabs racing), replaces the
   * half-signed-in session by a new full one (a new id at the privilege change), and clears the
   * failure count. Returns false, changing nothing, when the step was already used.
   */
  completeSecondFactor(input: {
    userId: string;
    step: number;
    previousSessionId: string;
    session: AdminSessionRecord;
    now: number;
  }): Promise<boolean>;
  /**
   * Changes a user's password and ends all their sessions (the old password may be known to someone
   * else), clearing any lock, in one transaction. False when there is no such user.
   */
  replaceAdminPassword(input: { id: string; passwordHash: string; now: number }): Promise<boolean>;
  /** Stores (or clears, with null) the TOTP key a user is setting up, not yet confirmed. */
  setPendingTotp(input: { id: string; sealed: string | null; now: number }): Promise<void>;
  /**
   * Turns the second factor on with the pending key, once a code from it was right: the key becomes
   * the account's, `step` is recorded as used, and every other session of the user ends (they were
   * signed in with the password alone). Guarded on the pending key still being the one confirmed.
   * Returns false, changing nothing, when it is not.
   */
  enableTotp(input: {
    id: string;
    pendingSealed: string;
    step: number;
    keepSessionId: string;
    now: number;
  }): Promise<boolean>;
  /** Turns the second factor off (the operator's recovery when a phone is lost). */
  disableTotp(input: { id: string; now: number }): Promise<boolean>;
  /** Removes a user and every session of theirs. False when there was no such user. */
  deleteAdminUser(id: string): Promise<boolean>;
}
