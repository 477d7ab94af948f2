import { AppError } from '../domain/errors.ts';
import { base32Encode } from '../lib/base32.ts';
import { newTotpKey, otpauthUri, verifyTotp } from '../lib/totp.ts';
import { AdminAuthError } from './admin-auth-error.ts';
import { type Deps, requireBox } from './deps.ts';

/** What the account page shows while a user sets up their authenticator app. */
export interface TotpSetup {
  /** The key in base32, for typing into an app by hand. */
  secret: string;
  /** The otpauth:// URI, for the QR code. */
  uri: string;
}

const aad = (userId: string) => `${userId}:totp`;

function issuer(deps: Pick<Deps, 'config'>): string {
  try {
    return `Kassa (${new URL(deps.config.baseUrl).host})`;
  } catch {
    return 'Kassa';
  }
}

async function mustFind(deps: Pick<Deps, 'db'>, userId: string) {
  const user = await deps.db.findAdminUserById(userId);
  if (!user) throw new AppError('not_found', 'No such dashboard user.');
  return user;
}

/**
 * Starts (or restarts) setting up a second factor: a fresh 20-byte key, sealed with the master key
 * and kept as pending until a code from it is typed back. Throws `validation` when it is on already.
 */
export async function beginTotpSetup(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'box'>,
  userId: string,
): Promise<TotpSetup> {
  const user = await mustFind(deps, userId);
  if (user.totpSealed) throw new AppError('validation', 'The second factor is on already.');
  const key = newTotpKey();
  const sealed = requireBox(deps as Deps).seal(key.toString('base64'), aad(userId));
  await deps.db.setPendingTotp({ id: userId, sealed, now: deps.clock.now() });
  return { secret: base32Encode(key), uri: otpauthUri(key, issuer(deps), user.email) };
}

/** The setup in progress, if any (the account page shows it again after a reload). */
export async function pendingTotpSetup(
  deps: Pick<Deps, 'db' | 'config' | 'box'>,
  userId: string,
): Promise<TotpSetup | null> {
  const user = await mustFind(deps, userId);
  if (!user.totpPendingSealed || user.totpSealed) return null;
  const key = Buffer.from(requireBox(deps as Deps).open(user.totpPendingSealed, aad(userId)), 'base64');
  return { secret: base32Encode(key), uri: otpauthUri(key, issuer(deps), user.email) };
}

/**
 * Turns the second factor on once a code from the pending key is right; every other session of
 * the user ends (they were opened with the password alone). Throws AdminAuthError `code` for a
 * wrong code, `validation` when no setup is in progress.
 */
export async function confirmTotpSetup(
  deps: Pick<Deps, 'db' | 'clock' | 'box'>,
  input: { userId: string; code: string; keepSessionId: string },
): Promise<void> {
  const user = await mustFind(deps, input.userId);
  if (!user.totpPendingSealed) throw new AppError('validation', 'Start setting up the second factor first.');
  const key = Buffer.from(requireBox(deps as Deps).open(user.totpPendingSealed, aad(user.id)), 'base64');
  const now = deps.clock.now();
  const step = verifyTotp(key, input.code, now);
  if (step === null) throw new AdminAuthError('code');
  const enabled = await deps.db.enableTotp({
    id: user.id,
    pendingSealed: user.totpPendingSealed,
    step: Number(step),
    keepSessionId: input.keepSessionId,
    now,
  });
  if (!enabled) throw new AppError('state_conflict', 'The setup changed meanwhile; start again.');
}

/**
 * Turns the second factor off; needs a current code from it (a stolen session alone cannot).
 * Throws AdminAuthError `code` for a wrong code, `validation` when it is off.
 */
export async function turnOffTotp(
  deps: Pick<Deps, 'db' | 'clock' | 'box'>,
  input: { userId: string; code: string },
): Promise<void> {
  const user = await mustFind(deps, input.userId);
  if (!user.totpSealed) throw new AppError('validation', 'The second factor is off already.');
  const key = Buffer.from(requireBox(deps as Deps).open(user.totpSealed, aad(user.id)), 'base64');
  const step = verifyTotp(key, input.code, deps.clock.now(), {
    notAfterStep: user.totpLastStep === null ? null : BigInt(user.totpLastStep),
  });
  if (step === null) throw new AdminAuthError('code');
  await deps.db.disableTotp({ id: user.id, now: deps.clock.now() });
}
