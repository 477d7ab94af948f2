import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of `message` keyed by `key`. */
export function hmacHex(key: string | Buffer, message: string | Buffer): string {
  return createHmac('sha256', key).update(message).digest('hex');
}

/** Base64 HMAC-SHA256, as Standard Webhooks signatures carry it. */
export function hmacBase64(key: string | Buffer, message: string | Buffer): string {
  return createHmac('sha256', key).update(message).digest('base64');
}

/**
 * Constant-time check that `candidateHex` is the HMAC of `message` under `key`. Accepts upper- or
 * lowercase hex; anything that is not 64 hex characters is simply unequal.
 */
export function hmacHexEquals(key: string | Buffer, message: string | Buffer, candidateHex: string): boolean {
  const expected = createHmac('sha256', key).update(message).digest();
  if (candidateHex.length !== 64 || !/^[0-9a-fA-F]{64}$/.test(candidateHex)) return false;
  return timingSafeEqual(expected, Buffer.from(candidateHex, 'hex'));
}
