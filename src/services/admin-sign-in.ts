import { processShare } from '../config/process-share.ts';
import type { AdminUserRecord } from '../db/store.ts';

import { hashPassword, verifyPassword } from '../lib/password.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import { verifyTotp } from '../lib/totp.ts';
import { normaliseEmail } from './admin-accounts.ts';
import { AdminAuthError } from './admin-auth-error.ts';
import { newSessionRecord, newSessionToken, sessionIdOf } from './admin-sessions.ts';
import { type Deps, requireBox } from './deps.ts';

/** Who is signing in from where; `limiter` counts attempts per client address. */
export interface SignInClient {
  address: string;
  userAgent: string | null;
  limiter: RateLimiter;
}

/** What a right password (or code) gives: the cookie token and whether a code is still needed. */
export interface SignInResult {
  token: string;
  userId: string;
  stage: 'password' | 'full';
  expiresAt: number;
}

/** Checked against when the email is unknown, so that answer takes as long as a wrong password. */
let decoyHash: Promise<string> | null = null;
async function decoy(): Promise<string> {
  decoyHash ??= hashPassword('not a password of anyone here');
  return decoyHash;
}

function admitAddress(deps: Pick<Deps, 'config'>, client: SignInClient): void {
  const { limit, windowSeconds } = deps.config.admin.signInPerAddress;
  const share = processShare(deps.config, limit); // counted per process: each takes its share
  const hit = client.limiter.hit(`admin-sign-in:${client.address}`, share, windowSeconds * 1000);
  if (!hit.allowed) throw new AdminAuthError('too_many', hit.retryAfterSeconds);
}

function refuseIfLocked(user: AdminUserRecord, now: number): void {
  if (user.lockedUntil !== null && user.lockedUntil > now)
    throw new AdminAuthError('locked', Math.ceil((user.lockedUntil - now) / 1000));
}

async function countFailure(deps: Pick<Deps, 'db' | 'config'>, user: AdminUserRecord, now: number) {
  const { failures, lockSeconds } = deps.config.admin.signInPerAccount;
  const after = await deps.db.recordSignInFailure({
    id: user.id,
    now,
    failures,
    lockMs: lockSeconds * 1000,
  });
  if (after.lockedUntil !== null && after.lockedUntil > now)
    throw new AdminAuthError('locked', Math.ceil((after.lockedUntil - now) / 1000));
}

/**
 * The first step of signing in: email and password. Limits: `admin.signInPerAddress` attempts per
 * client address in a window (right or wrong), and `admin.signInPerAccount.failures` wrong answers
 * in a row lock the account for `lockSeconds` (checked before the password, so a locked account
 * tells nothing about a guess). An unknown email costs the same scrypt work as a wrong password
 * and gets the same answer. For a user with TOTP on, a right password opens only a five-minute
 * half session for the code, and does not clear the failure count (so codes cannot be guessed
 * between right passwords). Throws AdminAuthError.
 */
export async function signInWithPassword(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  input: { email: string; password: string },
  client: SignInClient,
): Promise<SignInResult> {
  admitAddress(deps, client);
  const user = await deps.db.findAdminUserByEmail(normaliseEmail(input.email));
  const now = deps.clock.now();
  if (!user) {
    await verifyPassword(input.password, await decoy());
    throw new AdminAuthError('credentials');
  }
  refuseIfLocked(user, now);
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    await countFailure(deps, user, deps.clock.now());
    throw new AdminAuthError('credentials');
  }
  const stage = user.totpSealed ? 'password' : 'full';
  const token = newSessionToken();
  const session = newSessionRecord(deps, {
    token,
    userId: user.id,
    stage,
    now,
    address: client.address,
    userAgent: client.userAgent,
  });
  await deps.db.startAdminSession({ session, now, clearFailures: stage === 'full' });
  return { token, userId: user.id, stage, expiresAt: session.expiresAt };
}

/**
 * The second step for a user with TOTP on: the code from their app, within five minutes of the
 * password. A code works once (its time step must be later than the last one taken, checked and
 * recorded in one transaction); a wrong code counts as a failed sign-in. On success the half
 * session is replaced by a full one with a new token. Throws AdminAuthError (`session` when the
 * half session is gone or expired).
 */
export async function signInWithCode(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'box'>,
  input: { token: string | undefined; code: string },
  client: SignInClient,
): Promise<SignInResult> {
  admitAddress(deps, client);
  const now = deps.clock.now();
  const half = input.token ? await deps.db.findAdminSession(sessionIdOf(input.token)) : null;
  if (half?.stage !== 'password' || half.expiresAt <= now) throw new AdminAuthError('session');
  const user = await deps.db.findAdminUserById(half.userId);
  if (!user?.totpSealed) throw new AdminAuthError('session');
  refuseIfLocked(user, now);
  const key = Buffer.from(requireBox(deps as Deps).open(user.totpSealed, `${user.id}:totp`), 'base64');
  const step = verifyTotp(key, input.code, now, {
    notAfterStep: user.totpLastStep === null ? null : BigInt(user.totpLastStep),
  });
  if (step === null) {
    await countFailure(deps, user, now);
    throw new AdminAuthError('code');
  }
  const token = newSessionToken();
  const session = newSessionRecord(deps, {
    token,
    userId: user.id,
    stage: 'full',
    now,
    address: client.address,
    userAgent: client.userAgent,
  });
  const taken = await deps.db.completeSecondFactor({
    userId: user.id,
    step: Number(step),
    previousSessionId: half.id,
    session,
    now,
  });
  if (!taken) throw new AdminAuthError('code');
  return { token, userId: user.id, stage: 'full', expiresAt: session.expiresAt };
}
