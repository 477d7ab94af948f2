import { TronWeb } from 'tronweb';
import { ChainError } from '../errors.ts';

/**
 * TRON address spellings (chains.md A.2): base58check `T…` (what Kassa stores and users see),
 * 21-byte hex `41…` (what the node's JSON uses with visible=false), and the 20-byte form without
 * `41` (event log `address`, ABI words, topics).
 */

const HEX41 = /^41[0-9a-f]{40}$/;
const HEX20 = /^(0x)?[0-9a-fA-F]{40}$/;

/** The 21-byte hex form (`41…`, lowercase) of a base58 `T…`, `41…` hex or 20-byte `0x…` address; throws on anything else. */
export function toHex41(address: string): string {
  const lower = address.toLowerCase();
  if (HEX41.test(lower)) return lower;
  if (HEX20.test(address)) return `41${lower.replace(/^0x/, '')}`;
  if (!TronWeb.isAddress(address)) throw new ChainError('bad_request', `not a TRON address: ${address}`);
  return TronWeb.address.toHex(address).toLowerCase();
}

/** The base58check `T…` form of any spelling `toHex41` accepts. */
export function toBase58(address: string): string {
  return TronWeb.address.fromHex(toHex41(address));
}

/** The 20-byte form (40 lowercase hex, no `41`) as event logs and ABI words carry it. */
export function toHex20(address: string): string {
  return toHex41(address).slice(2);
}

/**
 * The 20-byte address in a 32-byte ABI word or log topic: its LAST 20 bytes. Wallets put `41` (or
 * anything) in the padding, and the contract only reads the low 160 bits (chains.md A.4).
 */
export function wordToHex20(word: string): string {
  return word.slice(-40).toLowerCase();
}

/** A 32-byte ABI word holding an address (left-padded with zeros). */
export function addressWord(address: string): string {
  return toHex20(address).padStart(64, '0');
}

/** The base58 address of a secp256k1 private key. */
export function addressOfKey(privateKey: Buffer): string {
  const address = TronWeb.address.fromPrivateKey(privateKey.toString('hex'));
  if (!address) throw new ChainError('wrong_key', 'not a secp256k1 private key');
  return address;
}
