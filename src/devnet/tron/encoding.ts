import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { TronWeb } from 'tronweb';
import { ServletError } from './errors.ts';

/** A 21-byte TRON address as 42 lowercase hex characters, `41` first (the node's `visible=false` form). */
export type HexAddress = string;

const HEX_ADDRESS = /^41[0-9a-f]{40}$/;
const HEX = /^(?:[0-9a-f]{2})*$/;

/** Lowercase hex without `0x`; throws ServletError when the text is not an even-length hex string. */
export function normalizeHex(value: unknown, field: string): string {
  if (typeof value !== 'string')
    throw new ServletError('java.lang.IllegalArgumentException', `${field} is not hex`);
  const hex = value.replace(/^0x/i, '').toLowerCase();
  if (!HEX.test(hex)) throw new ServletError('java.lang.IllegalArgumentException', `${field} is not hex`);
  return hex;
}

/**
 * Reads an address the way java-tron does with `visible=false`: 21-byte hex only. A base58 `T…`
 * address is refused here on purpose, because the real node refuses it too unless `visible=true`.
 */
export function parseHexAddress(value: unknown, field: string): HexAddress {
  const hex = normalizeHex(value, field);
  if (!HEX_ADDRESS.test(hex)) {
    throw new ServletError('java.lang.IllegalArgumentException', `Invalid ${field}`);
  }
  return hex;
}

/** Accepts `T…` base58check, `41…` hex or `0x…` 20-byte EVM form and returns the 21-byte hex; throws otherwise. */
export function toHexAddress(address: string): HexAddress {
  if (/^(0x)?[0-9a-fA-F]{40}$/.test(address)) return `41${address.replace(/^0x/, '').toLowerCase()}`;
  if (HEX_ADDRESS.test(address.toLowerCase())) return address.toLowerCase();
  if (!TronWeb.isAddress(address)) throw new Error(`not a TRON address: ${address}`);
  return TronWeb.address.toHex(address).toLowerCase();
}

/** The base58check `T…` form of a 21-byte hex address. */
export function toBase58(address: HexAddress): string {
  return TronWeb.address.fromHex(address);
}

/** The 20-byte form used in event logs and ABI words: the hex address without its `41` prefix. */
export function evmHex(address: HexAddress): string {
  return address.slice(2);
}

/** A 32-byte ABI word (64 hex chars) holding an unsigned integer; throws on negatives or overflow. */
export function uintWord(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new RangeError(`uint256 out of range: ${value}`);
  return value.toString(16).padStart(64, '0');
}

/** A 32-byte ABI word holding a 20-byte address, left-padded with zeros. */
export function addressWord(address: HexAddress): string {
  return evmHex(address).padStart(64, '0');
}

/** Hex of the UTF-8 bytes of a text, as java-tron prints `message`/`resMessage` with `visible=false`. */
export function utf8Hex(text: string): string {
  return bytesToHex(utf8ToBytes(text));
}

/** keccak256 of UTF-8 text or bytes, lowercase hex without `0x`. */
export function keccakHex(input: string | Uint8Array): string {
  return bytesToHex(keccak_256(typeof input === 'string' ? utf8ToBytes(input) : input));
}

/** First four bytes of keccak256(signature): the Solidity function selector, as 8 hex chars. */
export function selectorOf(signature: string): string {
  return keccakHex(signature.replace(/\s+/g, '')).slice(0, 8);
}

/** The TRON address (hex) of an uncompressed secp256k1 public key (65 bytes, `04` first). */
export function addressOfPublicKey(publicKey: Uint8Array): HexAddress {
  return `41${keccakHex(publicKey.subarray(1)).slice(24)}`;
}

export { bytesToHex, hexToBytes };
