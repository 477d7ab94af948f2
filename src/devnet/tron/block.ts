import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { addressOfPublicKey, bytesToHex, type HexAddress, hexToBytes } from './encoding.ts';
import type { Outcome } from './execute.ts';
import { PARAMS } from './params.ts';
import type { State } from './state.ts';
import { signDigest, type Tx } from './transaction.ts';

/** A transaction in a block together with what executing it did. */
export interface IncludedTx {
  readonly tx: Tx;
  readonly outcome: Outcome;
}

/** A produced block. `state` (after the block) is kept only while the block is not below the solid head. */
export interface Block {
  readonly number: number;
  readonly id: string;
  readonly parentId: string;
  readonly timestamp: number;
  readonly witness: HexAddress;
  readonly txTrieRoot: string;
  readonly witnessSignature: string;
  readonly txs: readonly IncludedTx[];
  state: State | undefined;
}

interface Witness {
  readonly address: HexAddress;
  readonly privateKey: Uint8Array;
}

const WITNESSES: readonly Witness[] = Array.from({ length: PARAMS.witnessCount }, (_, index) => {
  const privateKey = sha256(utf8ToBytes(`kassa fake tron witness ${index}`));
  return { address: addressOfPublicKey(secp256k1.getPublicKey(privateKey, false)), privateKey };
});

const ZERO_HASH = '0'.repeat(64);

/**
 * Builds a block the way java-tron identifies it: `blockID` = block number as 8 big-endian bytes
 * followed by bytes 8..31 of sha256(BlockHeader.raw protobuf) (A.3), so ref-block (TaPoS) logic
 * and ordering by id work. The producer rotates over 27 fake witnesses; `epoch` shifts the rotation
 * so a block rebuilt after a fork gets a different id from the one it replaces.
 */
export function produceBlock(args: {
  number: number;
  parentId: string;
  timestamp: number;
  txs: readonly IncludedTx[];
  state: State;
  epoch: number;
}): Block {
  const witness = WITNESSES[(args.number + args.epoch * 7) % WITNESSES.length]!;
  const txTrieRoot = merkleRoot(args.txs.map((included) => included.tx.txID));
  const raw = encodeHeaderRaw({
    timestamp: args.timestamp,
    txTrieRoot,
    parentHash: args.parentId,
    number: args.number,
    witness: witness.address,
    version: PARAMS.blockVersion,
  });
  const hash = sha256(raw);
  const id = args.number.toString(16).padStart(16, '0') + bytesToHex(hash).slice(16);
  let signature: string | undefined;
  return {
    number: args.number,
    id,
    parentId: args.parentId,
    timestamp: args.timestamp,
    witness: witness.address,
    txTrieRoot,
    // signed on first read: most blocks of a test run are never printed
    get witnessSignature(): string {
      signature ??= signDigest(hash, witness.privateKey);
      return signature;
    },
    txs: args.txs,
    state: args.state,
  };
}

/** The parent id of the genesis block. */
export const GENESIS_PARENT = ZERO_HASH;

/** Root of a sha256 merkle tree over the transaction ids (all zeros for an empty block). */
function merkleRoot(ids: readonly string[]): string {
  if (ids.length === 0) return ZERO_HASH;
  let level: Uint8Array[] = ids.map((id) => hexToBytes(id));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1];
      next.push(right === undefined ? left : sha256(concat(left, right)));
    }
    level = next;
  }
  return bytesToHex(level[0]!);
}

/** `BlockHeader.raw`: timestamp=1, txTrieRoot=2, parentHash=3, number=7, witness_address=9, version=10. */
function encodeHeaderRaw(header: {
  timestamp: number;
  txTrieRoot: string;
  parentHash: string;
  number: number;
  witness: HexAddress;
  version: number;
}): Uint8Array {
  const parts: number[] = [];
  const varint = (field: number, value: number): void => {
    if (value === 0) return;
    parts.push(field << 3);
    let rest = BigInt(value);
    while (rest >= 0x80n) {
      parts.push(Number((rest & 0x7fn) | 0x80n));
      rest >>= 7n;
    }
    parts.push(Number(rest));
  };
  const bytes = (field: number, hex: string): void => {
    const data = hexToBytes(hex);
    if (data.length === 0) return;
    parts.push((field << 3) | 2, data.length, ...data);
  };
  varint(1, header.timestamp);
  bytes(2, header.txTrieRoot);
  bytes(3, header.parentHash);
  varint(7, header.number);
  bytes(9, header.witness);
  varint(10, header.version);
  return Uint8Array.from(parts);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
