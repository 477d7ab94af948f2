import { createECDH, createHmac, createPrivateKey, createPublicKey } from 'node:crypto';

/**
 * BIP-32 (secp256k1) and SLIP-0010 (ed25519) derivation on node:crypto, which is about ten times
 * faster than pure-JS curves: a deposit address costs tens of microseconds, so createCollection can
 * derive inline. Cross-checked against viem, tronweb and @mysten/sui in test/keys.test.ts.
 */

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
export const HARDENED = 0x80000000;

export interface Secp256k1Node {
  privateKey: Buffer;
  chainCode: Buffer;
  /** 33-byte compressed public key. */
  publicKey: Buffer;
}

function ser32(i: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(i >>> 0);
  return b;
}

function toBig(b: Buffer): bigint {
  return BigInt(`0x${b.toString('hex') || '0'}`);
}

function to32(n: bigint): Buffer {
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
}

/** The secp256k1 public key of a private key; `compressed` 33 bytes or uncompressed 65 bytes. */
export function secp256k1PublicKey(privateKey: Buffer, compressed: boolean): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey(null, compressed ? 'compressed' : 'uncompressed');
}

function secpNode(privateKey: Buffer, chainCode: Buffer): Secp256k1Node {
  return { privateKey, chainCode, publicKey: secp256k1PublicKey(privateKey, true) };
}

/** The BIP-32 master node of a BIP-39 seed. */
export function secp256k1Master(seed: Uint8Array): Secp256k1Node {
  const I = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  return secpNode(I.subarray(0, 32), I.subarray(32));
}

/** CKDpriv: one child of a node; `index` ≥ HARDENED for hardened children. Throws on the (2^-127) invalid child. */
export function secp256k1Child(parent: Secp256k1Node, index: number): Secp256k1Node {
  const { privateKey, chainCode } = secp256k1ChildKey(parent, index);
  return secpNode(privateKey, chainCode);
}

/** CKDpriv without computing the child's public key (for leaves, where only the key is needed). */
export function secp256k1ChildKey(
  parent: Secp256k1Node,
  index: number,
): { privateKey: Buffer; chainCode: Buffer } {
  const data =
    index >= HARDENED
      ? Buffer.concat([Buffer.alloc(1), parent.privateKey, ser32(index)])
      : Buffer.concat([parent.publicKey, ser32(index)]);
  const I = createHmac('sha512', parent.chainCode).update(data).digest();
  const il = toBig(I.subarray(0, 32));
  const child = (il + toBig(parent.privateKey)) % N;
  if (il >= N || child === 0n) throw new Error(`BIP-32 child ${index} is invalid; use the next index`);
  return { privateKey: to32(child), chainCode: I.subarray(32) };
}

/** Parses "m/44'/60'/0'/0/5" into child indexes. */
export function parsePath(path: string): number[] {
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new Error(`Derivation path must start with m: ${path}`);
  return parts.slice(1).map((p) => {
    const hardened = p.endsWith("'") || p.endsWith('h');
    const n = Number(hardened ? p.slice(0, -1) : p);
    if (!Number.isInteger(n) || n < 0 || n >= HARDENED) throw new Error(`Bad path segment ${p} in ${path}`);
    return hardened ? n + HARDENED : n;
  });
}

/** Derives a secp256k1 node along a path from a seed. */
export function secp256k1Derive(seed: Uint8Array, path: string): Secp256k1Node {
  return parsePath(path).reduce((node, index) => secp256k1Child(node, index), secp256k1Master(seed));
}

export interface Ed25519Node {
  /** 32-byte private seed. */
  privateKey: Buffer;
  chainCode: Buffer;
}

/** SLIP-0010 ed25519 derivation (every segment hardened, as ed25519 requires). */
export function ed25519Derive(seed: Uint8Array, path: string): Ed25519Node {
  const I = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  let node: Ed25519Node = { privateKey: I.subarray(0, 32), chainCode: I.subarray(32) };
  for (const index of parsePath(path)) {
    if (index < HARDENED) throw new Error(`ed25519 derivation needs hardened segments: ${path}`);
    const J = createHmac('sha512', node.chainCode)
      .update(Buffer.concat([Buffer.alloc(1), node.privateKey, ser32(index)]))
      .digest();
    node = { privateKey: J.subarray(0, 32), chainCode: J.subarray(32) };
  }
  return node;
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The 32-byte ed25519 public key of a 32-byte private seed. */
export function ed25519PublicKey(privateKey: Buffer): Buffer {
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, privateKey]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32);
}
