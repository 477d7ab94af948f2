import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = POOL_SIZE;

/** Random bytes from a refilled pool: one system call per 4 KiB instead of one per id. */
function entropy(n: number): Buffer {
  if (offset + n > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}

/**
 * A prefixed random id (`ord_…`, `evt_…`, `mch_…`): 20 base-36 characters (~103 bits, each from a
 * byte below 252 so all 36 characters are equally likely).
 */
export function newId(prefix: string): string {
  let out = `${prefix}_`;
  let n = 0;
  while (n < 20) {
    for (const b of entropy(24)) {
      if (b >= 252) continue;
      out += ALPHABET[b % 36];
      if (++n === 20) break;
    }
  }
  return out;
}

/** 32 random bytes as 64 hex characters: merchant tokens and webhook secrets. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}
