import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { base32Encode } from './base32.ts';

/** HMAC hash of a TOTP (RFC 6238 section 1.2 allows SHA-1, SHA-256 and SHA-512). */
export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  algorithm?: TotpAlgorithm;
  digits?: number;
  /** Time step X in seconds (default 30). */
  stepSeconds?: number;
}

/**
 * HOTP (RFC 4226 section 5.3): HMAC of the 8-byte big-endian counter, dynamic truncation, the low
 * `digits` decimal digits, left-padded with zeros.
 */
export function hotp(
  key: Uint8Array,
  counter: bigint,
  digits = 6,
  algorithm: TotpAlgorithm = 'sha1',
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step T = floor(unix seconds / X) of an instant given in epoch milliseconds (T0 = 0). */
export function totpStep(nowMs: number, stepSeconds = 30): bigint {
  return BigInt(Math.floor(nowMs / 1000 / stepSeconds));
}

/** The TOTP of `key` at `nowMs` (RFC 6238 section 4.2: HOTP with T as the counter). */
export function totp(key: Uint8Array, nowMs: number, options: TotpOptions = {}): string {
  return hotp(key, totpStep(nowMs, options.stepSeconds), options.digits ?? 6, options.algorithm);
}

/**
 * Checks a code typed at `nowMs` against the steps `window` either side of now (RFC 6238 section 5.2:
 * one step back absorbs clock drift and typing time). Returns the matching step, or null. A code of
 * a step at or before `notAfterStep` is refused, so a code cannot be used twice (section 5.2: the
 * verifier must not accept the second attempt of the same OTP).
 */
export function verifyTotp(
  key: Uint8Array,
  code: string,
  nowMs: number,
  options: TotpOptions & { window?: number; notAfterStep?: bigint | null } = {},
): bigint | null {
  const digits = options.digits ?? 6;
  const typed = code.replace(/\s/g, '');
  if (!new RegExp(`^\\d{${digits}}$`).test(typed)) return null;
  const now = totpStep(nowMs, options.stepSeconds);
  const window = BigInt(options.window ?? 1);
  let found: bigint | null = null;
  // Every candidate is computed and compared, so the time taken says nothing about which matched.
  for (let step = now - window; step <= now + window; step++) {
    const expected = Buffer.from(hotp(key, step, digits, options.algorithm));
    if (timingSafeEqual(expected, Buffer.from(typed)) && found === null) found = step;
  }
  if (found === null) return null;
  if (options.notAfterStep !== undefined && options.notAfterStep !== null && found <= options.notAfterStep)
    return null;
  return found;
}

/** A new random TOTP key (20 bytes, the SHA-1 block-size recommendation of RFC 4226 section 4). */
export function newTotpKey(): Buffer {
  return randomBytes(20);
}

/**
 * The `otpauth://totp/…` URI authenticator apps read from a QR code (Google Authenticator's Key URI
 * format): issuer and account in the label and as `issuer=`, the key in base32, SHA-1, 6 digits, 30 s.
 */
export function otpauthUri(key: Uint8Array, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(key),
    issuer,
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  });
  return `otpauth://totp/${label}?${query}`;
}
