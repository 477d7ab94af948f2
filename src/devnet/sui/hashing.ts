/**
 * Sui's hashing conventions: a digest is BLAKE2b-256 over `"<TypeName>::" || bcs(value)`, shown as
 * base58; object ids of created objects are BLAKE2b-256 over `0xf1 || tx digest || creation counter`.
 */
import { fromBase58, normalizeSuiAddress, toBase58, toHex } from '@mysten/sui/utils';
import { blake2b } from '@noble/hashes/blake2.js';

const OBJECT_ID_SCOPE = 0xf1;

/** BLAKE2b-256 of the concatenated parts. */
export function blake2b256(...parts: Uint8Array[]): Uint8Array {
  const h = blake2b.create({ dkLen: 32 });
  for (const p of parts) h.update(p);
  return h.digest();
}

/** A Sui digest: base58 of BLAKE2b-256 over the type-name salt and the BCS bytes. */
export function typedDigest(typeName: string, bcsBytes: Uint8Array): string {
  return toBase58(blake2b256(new TextEncoder().encode(`${typeName}::`), bcsBytes));
}

/** The 32 bytes of a base58 digest; throws if it is not 32 bytes of base58. */
export function digestBytes(digest: string): Uint8Array {
  const bytes = fromBase58(digest);
  if (bytes.length !== 32) throw new Error(`digest ${digest} is not 32 bytes`);
  return bytes;
}

/** True when the string is a base58 encoding of 32 bytes. */
export function isDigest(value: string): boolean {
  try {
    return digestBytes(value).length === 32;
  } catch {
    return false;
  }
}

/** Little-endian u64, as BCS writes it. */
export function u64le(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

/** The id Sui gives the `counter`-th object created by a transaction (`ObjectID::derive_id`). */
export function deriveObjectId(txDigest: string, counter: bigint): string {
  const hash = blake2b256(Uint8Array.of(OBJECT_ID_SCOPE), digestBytes(txDigest), u64le(counter));
  return normalizeSuiAddress(toHex(hash));
}

/** A deterministic base58 digest from a label, for genesis values that have no BCS source. */
export function labelDigest(label: string): string {
  return toBase58(blake2b256(new TextEncoder().encode(label)));
}
