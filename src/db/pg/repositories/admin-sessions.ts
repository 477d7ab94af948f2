import { and, desc, eq, ne } from 'drizzle-orm';
import type { AdminSessionWithUser } from '../../repositories/admin-sessions.ts';
import type { AdminSessionRecord } from '../../repositories/admin-users.ts';
import type { PgExecutor } from '../client.ts';
import { adminSessions } from '../schema/admin-sessions.ts';
import { adminUsers } from '../schema/admin-users.ts';

// Dashboard sessions on PostgreSQL: the same functions as ../../repositories/admin-sessions.ts. Each
// write is one statement (a); sign-in, which writes sessions with the user, is in admin-users.ts.

/** The session whose id (token hash) is `id`, with its user; null when there is none. */
export async function findAdminSession(ex: PgExecutor, id: string): Promise<AdminSessionWithUser | null> {
  const [row] = await ex
    .select({
      session: adminSessions,
      email: adminUsers.email,
      role: adminUsers.role,
      totpSealed: adminUsers.totpSealed,
    })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(eq(adminSessions.id, id));
  if (!row) return null;
  return { ...row.session, email: row.email, role: row.role, totpOn: row.totpSealed !== null };
}

/** Records activity on a session (callers do it at most once a minute). */
export async function touchAdminSession(ex: PgExecutor, id: string, now: number): Promise<void> {
  await ex.update(adminSessions).set({ lastSeenAt: now }).where(eq(adminSessions.id, id));
}

/** Ends one session. */
export async function deleteAdminSession(ex: PgExecutor, id: string): Promise<void> {
  await ex.delete(adminSessions).where(eq(adminSessions.id, id));
}

/** Ends every session of a user, or every one but `exceptId`; returns how many ended. */
export async function deleteAdminSessionsOfUser(
  ex: PgExecutor,
  userId: string,
  exceptId?: string,
): Promise<number> {
  const result = await ex
    .delete(adminSessions)
    .where(
      exceptId === undefined
        ? eq(adminSessions.userId, userId)
        : and(eq(adminSessions.userId, userId), ne(adminSessions.id, exceptId)),
    );
  return result.rowCount ?? 0;
}

/** A user's sessions, newest first. */
export async function listAdminSessionsOfUser(ex: PgExecutor, userId: string): Promise<AdminSessionRecord[]> {
  return ex
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.userId, userId))
    .orderBy(desc(adminSessions.createdAt), desc(adminSessions.id));
}
