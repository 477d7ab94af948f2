import { createHash } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** Address encodings of the three families, from public keys. */

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin-alphabet base58. */
export function base58Encode(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Decodes base58; null when a character is outside the alphabet. */
export function base58Decode(text: string): Buffer | null {
  let n = 0n;
  for (const c of text) {
    const v = B58.indexOf(c);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  let hex = n === 0n ? '' : n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let zeros = 0;
  while (text[zeros] === '1') zeros++;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
}

function sha256(b: Uint8Array): Buffer {
  return createHash('sha256').update(b).digest();
}

/** base58check: payload + first 4 bytes of double SHA-256. */
export function base58check(payload: Uint8Array): string {
  return base58Encode(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}

/** The 20-byte account id of an uncompressed secp256k1 public key (65 bytes, 0x04 prefix). */
export function secp256k1AccountId(uncompressed: Uint8Array): Buffer {
  return Buffer.from(keccak_256(uncompressed.subarray(1))).subarray(12);
}

/** EIP-55 mixed-case checksum form of a 20-byte account id or a 0x hex address. */
export function toChecksumAddress(address: Uint8Array | string): string {
  const hex =
    typeof address === 'string'
      ? address.toLowerCase().replace(/^0x/, '')
      : Buffer.from(address).toString('hex');
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = hex[i] as string;
    out += parseInt(hash[i] as string, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** TRON base58check address (T…) of a 20-byte account id. */
export function tronAddress(accountId: Uint8Array): string {
  return base58check(Buffer.concat([Buffer.from([0x41]), accountId]));
}

/** Sui address of an ed25519 public key: 0x + blake2b-256(0x00 ‖ pubkey). */
export function suiAddress(ed25519PublicKey: Uint8Array): string {
  const digest = blake2b(Buffer.concat([Buffer.from([0x00]), ed25519PublicKey]), { dkLen: 32 });
  return `0x${Buffer.from(digest).toString('hex')}`;
}
