import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost: N = 2^15, r = 8, p = 3 (32 MiB), one of OWASP's equivalent minimum settings. */
export const SCRYPT_COST = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** Shortest password accepted for an operator account. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest: scrypt takes any length, but a megabyte "password" is a denial of service, not a secret. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128·N·r·p bytes, or node refuses the parameters.
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...cost, maxmem: 256 * cost.N * cost.r * cost.p },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/**
 * Hashes a password with scrypt and a fresh 16-byte salt (node:crypto, off the main thread). The
 * result carries its own parameters, `scrypt$N$r$p$salt$hash` (base64), so the cost can be raised
 * later without breaking stored hashes. The password is NFKC-normalised first, so the same typed
 * characters always match.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, SCRYPT_COST);
  const { N, r, p } = SCRYPT_COST;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Checks a password against a stored hash in constant time. A malformed stored hash never matches
 * (and never throws), so a damaged row locks nobody in.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false;
  const salt = Buffer.from(parts[4] as string, 'base64');
  const expected = Buffer.from(parts[5] as string, 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, salt, { N, r, p });
  return timingSafeEqual(key, expected);
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH)
    return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}
