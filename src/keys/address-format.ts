import { createHash } from 'node:crypto';
import type { Chain } from '../domain/chains.ts';
import { familyOf } from '../domain/chains.ts';
import { base58Decode, toChecksumAddress } from './encode.ts';

/** Whether `text` is a TRON base58check address (T…, 34 characters, 0x41 prefix, valid checksum). */
export function isTronAddress(text: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return false;
  const raw = base58Decode(text);
  if (raw?.length !== 25 || raw[0] !== 0x41) return false;
  const payload = raw.subarray(0, 21);
  const check = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest();
  return check.subarray(0, 4).equals(raw.subarray(21));
}

/**
 * Whether `text` is an EVM address: 0x + 40 hex. All-lowercase or all-uppercase is accepted as is;
 * mixed case must carry a correct EIP-55 checksum (a typo in a checksummed address is caught).
 */
export function isEvmAddress(text: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return false;
  const body = text.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(text) === text;
}

/** Whether `text` is a Sui address: 0x + 64 hex. */
export function isSuiAddress(text: string): boolean {
  return /^0x[0-9a-fA-F]{64}$/.test(text);
}

/** Whether `text` is a valid address on `chain`. */
export function isAddressForChain(chain: Chain, text: string): boolean {
  switch (familyOf(chain)) {
    case 'tron':
      return isTronAddress(text);
    case 'evm':
      return isEvmAddress(text);
    case 'sui':
      return isSuiAddress(text);
  }
}

/** The canonical spelling Kassa stores and compares: EIP-55 for EVM, lowercase for Sui, as-is for TRON. */
export function normaliseAddress(chain: Chain, text: string): string {
  switch (familyOf(chain)) {
    case 'evm':
      return toChecksumAddress(text);
    case 'sui':
      return text.toLowerCase();
    case 'tron':
      return text;
  }
}
