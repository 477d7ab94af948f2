import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A prefixed random id (`ord_…`, `evt_…`, `mch_…`), 20 base-36 characters of randomness (~103 bits). */
export function newId(prefix: string): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${prefix}_${out}`;
}

/** 32 random bytes as 64 hex characters: merchant tokens and webhook secrets. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}
