import type { AdminRole, AdminUserRecord } from '../db/store.ts';

import { AppError } from '../domain/errors.ts';
import { newId } from '../lib/ids.ts';
import { hashPassword, passwordProblem } from '../lib/password.ts';
import type { Deps } from './deps.ts';

export const ADMIN_ROLES = ['admin', 'viewer'] as const satisfies readonly AdminRole[];
export type { AdminRole };

/** An operator account as shown to people: no hash, no key. */
export interface AdminUserView {
  userId: string;
  email: string;
  role: AdminRole;
  totp: boolean;
  lockedUntil: string | null;
  createdAt: string;
}

/** The form an email is stored and looked up in: trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(email: string): string {
  const e = normaliseEmail(email);
  if (e.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(e))
    throw new AppError('validation', `Not an email address: ${JSON.stringify(email)}.`);
  return e;
}

function view(u: AdminUserRecord, now: number): AdminUserView {
  return {
    userId: u.id,
    email: u.email,
    role: u.role,
    totp: u.totpSealed !== null,
    lockedUntil: u.lockedUntil !== null && u.lockedUntil > now ? new Date(u.lockedUntil).toISOString() : null,
    createdAt: new Date(u.createdAt).toISOString(),
  };
}

async function mustFind(deps: Pick<Deps, 'db'>, email: string): Promise<AdminUserRecord> {
  const user = await deps.db.findAdminUserByEmail(normaliseEmail(email));
  if (!user) throw new AppError('not_found', `No dashboard user ${normaliseEmail(email)}.`);
  return user;
}

/**
 * Creates a dashboard user (`kassa admin create-user`). The password (at least 12 characters) is
 * stored only as an scrypt hash. Throws `validation` for a bad email, role or password, or an email
 * that is taken.
 */
export async function createAdminUser(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { email: string; role: string; password: string },
): Promise<AdminUserView> {
  const email = checkEmail(input.email);
  if (!(ADMIN_ROLES as readonly string[]).includes(input.role))
    throw new AppError('validation', `The role must be admin or viewer, not ${JSON.stringify(input.role)}.`);
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError('validation', problem);
  const now = deps.clock.now();
  const record: AdminUserRecord = {
    id: newId('usr'),
    email,
    role: input.role as AdminRole,
    passwordHash: await hashPassword(input.password),
    totpSealed: null,
    totpPendingSealed: null,
    totpLastStep: null,
    failedSignIns: 0,
    lockedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.db.insertAdminUser(record)))
    throw new AppError('validation', `A dashboard user ${email} exists already.`);
  return view(record, now);
}

/** Every dashboard user, oldest first, without secrets. */
export async function describeAdminUsers(deps: Pick<Deps, 'db' | 'clock'>): Promise<AdminUserView[]> {
  const now = deps.clock.now();
  return (await deps.db.listAdminUsers()).map((u) => view(u, now));
}

/**
 * Sets a new password (`kassa admin set-password`): clears a lock, and signs the user out
 * everywhere. Throws `not_found` or `validation`.
 */
export async function setAdminPassword(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { email: string; password: string },
): Promise<void> {
  const user = await mustFind(deps, input.email);
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError('validation', problem);
  await deps.db.replaceAdminPassword({
    id: user.id,
    passwordHash: await hashPassword(input.password),
    now: deps.clock.now(),
  });
}

/** Turns a user's second factor off (`kassa admin reset-totp`, when the phone is lost). */
export async function resetAdminTotp(deps: Pick<Deps, 'db' | 'clock'>, email: string): Promise<void> {
  const user = await mustFind(deps, email);
  await deps.db.disableTotp({ id: user.id, now: deps.clock.now() });
}

/** Removes a user and ends their sessions (`kassa admin remove-user`). */
export async function removeAdminUser(deps: Pick<Deps, 'db'>, email: string): Promise<void> {
  const user = await mustFind(deps, email);
  await deps.db.deleteAdminUser(user.id);
}
