import { createHash, randomBytes } from 'node:crypto';
import type { AdminRole, AdminSessionRecord, AdminSessionWithUser } from '../db/store.ts';
import type { Deps } from './deps.ts';

/** How long a half sign-in (right password, code not typed yet) stays open. */
export const SECOND_FACTOR_WINDOW_MS = 5 * 60_000;
/** Activity is written at most this often, so browsing costs no write per page. */
const TOUCH_EVERY_MS = 60_000;

/** A signed-in person, as every dashboard request sees them. */
export interface AdminSession {
  sessionId: string;
  userId: string;
  email: string;
  role: AdminRole;
  totpOn: boolean;
  stage: 'password' | 'full';
  createdAt: number;
  expiresAt: number;
}

/** A new random session token (the cookie value: 32 bytes, base64url). Only its hash is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored id of a session token: its SHA-256 in hex. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A session row for a token, ending at the configured time (or sooner for a half sign-in). */
export function newSessionRecord(
  deps: Pick<Deps, 'config'>,
  input: {
    token: string;
    userId: string;
    stage: 'password' | 'full';
    now: number;
    address: string;
    userAgent: string | null;
  },
): AdminSessionRecord {
  const life =
    input.stage === 'password' ? SECOND_FACTOR_WINDOW_MS : deps.config.admin.sessionHours * 3600_000;
  return {
    id: sessionIdOf(input.token),
    userId: input.userId,
    stage: input.stage,
    address: input.address.slice(0, 64),
    userAgent: input.userAgent?.slice(0, 200) ?? null,
    createdAt: input.now,
    lastSeenAt: input.now,
    expiresAt: input.now + life,
  };
}

function toSession(s: AdminSessionWithUser): AdminSession {
  return {
    sessionId: s.id,
    userId: s.userId,
    email: s.email,
    role: s.role,
    totpOn: s.totpOn,
    stage: s.stage,
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
  };
}

/**
 * The session a cookie token opens, or null: unknown, past its end, or idle longer than
 * `admin.idleMinutes` (then it is deleted). Records activity at most once a minute. The user's
 * role is read afresh on every call, so a change applies at the next request.
 */
export async function sessionFromToken(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  token: string | undefined,
): Promise<AdminSession | null> {
  if (!token || token.length > 100) return null;
  const now = deps.clock.now();
  const found = await deps.db.findAdminSession(sessionIdOf(token));
  if (!found) return null;
  const idleMs = deps.config.admin.idleMinutes * 60_000;
  if (found.expiresAt <= now || (found.stage === 'full' && now - found.lastSeenAt > idleMs)) {
    await deps.db.deleteAdminSession(found.id);
    return null;
  }
  if (now - found.lastSeenAt >= TOUCH_EVERY_MS) await deps.db.touchAdminSession(found.id, now);
  return toSession(found);
}

/** Ends the session of a cookie token (sign out here). */
export async function signOut(deps: Pick<Deps, 'db'>, token: string): Promise<void> {
  await deps.db.deleteAdminSession(sessionIdOf(token));
}

/** Ends every session of a user, this one included (sign out everywhere); returns how many ended. */
export async function signOutEverywhere(deps: Pick<Deps, 'db'>, userId: string): Promise<number> {
  return await deps.db.deleteAdminSessionsOfUser(userId);
}

/** A user's open sessions, newest first, for the account page. */
export async function listSessions(deps: Pick<Deps, 'db' | 'clock'>, userId: string) {
  const now = deps.clock.now();
  return (await deps.db.listAdminSessionsOfUser(userId))
    .filter((s) => s.expiresAt > now && s.stage === 'full')
    .map((s) => ({
      sessionId: s.id,
      address: s.address,
      userAgent: s.userAgent,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
    }));
}
