import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { adminSessions } from '../schema/admin-sessions.ts';
import { adminUsers } from '../schema/admin-users.ts';
import type { AdminRole, AdminSessionRecord } from './admin-users.ts';

/** A session with what every request needs to know about its user. */
export interface AdminSessionWithUser extends AdminSessionRecord {
  email: string;
  role: AdminRole;
  totpOn: boolean;
}

/** The session whose id (token hash) is `id`, with its user; null when there is none. */
export function findAdminSession(db: Db, id: string): AdminSessionWithUser | null {
  const row = db
    .select({
      session: adminSessions,
      email: adminUsers.email,
      role: adminUsers.role,
      totpSealed: adminUsers.totpSealed,
    })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(eq(adminSessions.id, id))
    .get();
  if (!row) return null;
  return { ...row.session, email: row.email, role: row.role, totpOn: row.totpSealed !== null };
}

/** Records activity on a session (callers do it at most once a minute). */
export function touchAdminSession(db: Db, id: string, now: number): void {
  db.update(adminSessions).set({ lastSeenAt: now }).where(eq(adminSessions.id, id)).run();
}

/** Ends one session. */
export function deleteAdminSession(db: Db, id: string): void {
  db.delete(adminSessions).where(eq(adminSessions.id, id)).run();
}

/** Ends every session of a user, or every one but `exceptId`; returns how many ended. */
export function deleteAdminSessionsOfUser(db: Db, userId: string, exceptId?: string): number {
  return db
    .delete(adminSessions)
    .where(
      exceptId === undefined
        ? eq(adminSessions.userId, userId)
        : and(eq(adminSessions.userId, userId), ne(adminSessions.id, exceptId)),
    )
    .run().changes;
}

/** A user's sessions, newest first. */
export function listAdminSessionsOfUser(db: Db, userId: string): AdminSessionRecord[] {
  return db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.userId, userId))
    .orderBy(desc(adminSessions.createdAt))
    .all();
}
