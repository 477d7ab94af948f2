import { secp256k1 } from '@noble/curves/secp256k1.js';
import { utils } from 'tronweb';
import {
  addressOfPublicKey,
  bytesToHex,
  type HexAddress,
  hexToBytes,
  normalizeHex,
  parseHexAddress,
} from './encoding.ts';
import { badSignature, invalidContract, ServletError } from './errors.ts';
import { i64 } from './json.ts';
import { PARAMS } from './params.ts';

/** `TransferContract`: move `amount` sun from `owner` to `to`. */
export interface TransferCall {
  readonly type: 'TransferContract';
  readonly owner: HexAddress;
  readonly to: HexAddress;
  readonly amount: bigint;
}

/** `TriggerSmartContract`: call `contract` with ABI `data`. */
export interface TriggerCall {
  readonly type: 'TriggerSmartContract';
  readonly owner: HexAddress;
  readonly contract: HexAddress;
  readonly data: string;
  readonly callValue: bigint;
  readonly callTokenValue: bigint;
  readonly tokenId: bigint;
}

/** Stake 2.0 resource codes (`common.ResourceCode`); the fake lends energy only. */
export type ResourceCode = 'BANDWIDTH' | 'ENERGY';

/** `DelegateResourceContract`: lend `balance` sun of frozen TRX's resource to `receiver`. */
export interface DelegateCall {
  readonly type: 'DelegateResourceContract';
  readonly owner: HexAddress;
  readonly receiver: HexAddress;
  readonly balance: bigint;
  readonly resource: ResourceCode;
  readonly lock: boolean;
  readonly lockPeriod: bigint;
}

/** `UnDelegateResourceContract`: take back `balance` sun lent to `receiver`. */
export interface UndelegateCall {
  readonly type: 'UnDelegateResourceContract';
  readonly owner: HexAddress;
  readonly receiver: HexAddress;
  readonly balance: bigint;
  readonly resource: ResourceCode;
}

/** The one contract of a transaction the fake node executes. */
export type ContractCall = TransferCall | TriggerCall | DelegateCall | UndelegateCall;

/** `Transaction.raw`, with the fields the fake node supports. Times are epoch ms. */
export interface RawData {
  readonly contract: ContractCall;
  readonly permissionId: number;
  readonly refBlockBytes: string;
  readonly refBlockHash: string;
  readonly expiration: number;
  readonly timestamp: number;
  readonly feeLimit: bigint;
  /** memo bytes as hex, '' when absent */
  readonly memo: string;
}

/** A transaction with its id and protobuf bytes; `signatures` is empty until signed. */
export interface Tx {
  readonly raw: RawData;
  readonly txID: string;
  readonly rawDataHex: string;
  readonly signatures: readonly string[];
}

const TYPE_URL = 'type.googleapis.com/protocol.';
const SUPPORTED_RAW_KEYS = new Set([
  'contract',
  'ref_block_bytes',
  'ref_block_hash',
  'expiration',
  'timestamp',
  'fee_limit',
  'data',
]);

/**
 * Encodes `raw` with tronweb's own protobuf encoder (the one `trx.sign` checks against), so
 * `rawDataHex` is byte-exact and `txID = sha256(raw bytes)`.
 */
export function seal(raw: RawData, signatures: readonly string[] = []): Tx {
  const pb = utils.transaction.txJsonToPb({ visible: false, raw_data: tronwebRawData(raw) });
  const rawDataHex = String(utils.transaction.txPbToRawDataHex(pb)).toLowerCase();
  const txID = String(utils.transaction.txPbToTxID(pb)).replace(/^0x/, '').toLowerCase();
  return { raw, txID, rawDataHex, signatures };
}

/** `raw_data` as JSON with int64 fields as bigint, defaults omitted: what the node prints. */
export function renderRawData(raw: RawData): Record<string, unknown> {
  return {
    contract: [renderContract(raw)],
    ref_block_bytes: raw.refBlockBytes,
    ref_block_hash: raw.refBlockHash,
    expiration: i64(raw.expiration),
    data: raw.memo === '' ? undefined : raw.memo,
    fee_limit: i64(raw.feeLimit),
    timestamp: i64(raw.timestamp),
  };
}

function contractValue(call: ContractCall): Record<string, unknown> {
  switch (call.type) {
    case 'TransferContract':
      return { amount: i64(call.amount), owner_address: call.owner, to_address: call.to };
    case 'TriggerSmartContract':
      return {
        data: call.data === '' ? undefined : call.data,
        owner_address: call.owner,
        contract_address: call.contract,
        call_value: i64(call.callValue),
        call_token_value: i64(call.callTokenValue),
        token_id: i64(call.tokenId),
      };
    case 'DelegateResourceContract':
      return {
        owner_address: call.owner,
        resource: call.resource === 'BANDWIDTH' ? undefined : call.resource,
        balance: i64(call.balance),
        receiver_address: call.receiver,
        lock: call.lock ? true : undefined,
        lock_period: i64(call.lockPeriod),
      };
    case 'UnDelegateResourceContract':
      return {
        owner_address: call.owner,
        resource: call.resource === 'BANDWIDTH' ? undefined : call.resource,
        balance: i64(call.balance),
        receiver_address: call.receiver,
      };
  }
}

function renderContract(raw: RawData): Record<string, unknown> {
  const call = raw.contract;
  const value = contractValue(call);
  return {
    parameter: { value, type_url: `${TYPE_URL}${call.type}` },
    type: call.type,
    Permission_id: raw.permissionId === 0 ? undefined : raw.permissionId,
  };
}

/** The same JSON with plain numbers, as tronweb's encoder wants it. */
function tronwebRawData(raw: RawData): Record<string, unknown> {
  return JSON.parse(JSON.stringify(renderRawData(raw), (_key, value) => toSafeNumber(value)));
}

function toSafeNumber(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('int64 value too large for the encoder');
  return Number(value);
}

/**
 * Reads a client's `raw_data` JSON (visible=false). Structural nonsense is a servlet error
 * (`{"Error": …}`, like java-tron's JSON parser); a contract the node cannot execute is a
 * CONTRACT_VALIDATE_ERROR refusal.
 */
export function parseRawData(json: unknown): RawData {
  if (!isObject(json)) throw nullPointer();
  for (const key of Object.keys(json)) {
    if (!SUPPORTED_RAW_KEYS.has(key)) {
      throw new ServletError(
        'java.lang.IllegalArgumentException',
        `raw_data.${key} is not supported by the fake node`,
      );
    }
  }
  const contracts = json.contract;
  if (!Array.isArray(contracts)) throw nullPointer();
  if (contracts.length === 0) throw invalidContract('contract does not exist');
  if (contracts.length > 1) throw invalidContract('act size should be exactly 1, this is extend feature');
  const contract: unknown = contracts[0];
  if (!isObject(contract) || !isObject(contract.parameter) || !isObject(contract.parameter.value)) {
    throw nullPointer();
  }
  const value = contract.parameter.value;
  const type = contract.type;
  let call: ContractCall;
  if (type === 'TransferContract') {
    call = {
      type,
      owner: parseHexAddress(value.owner_address, 'ownerAddress'),
      to: parseHexAddress(value.to_address, 'toAddress'),
      amount: parseInt64(value.amount, 'amount'),
    };
  } else if (type === 'TriggerSmartContract') {
    call = {
      type,
      owner: parseHexAddress(value.owner_address, 'ownerAddress'),
      contract: parseHexAddress(value.contract_address, 'contractAddress'),
      data: value.data === undefined ? '' : normalizeHex(value.data, 'data'),
      callValue: parseInt64(value.call_value, 'call_value'),
      callTokenValue: parseInt64(value.call_token_value, 'call_token_value'),
      tokenId: parseInt64(value.token_id, 'token_id'),
    };
  } else if (type === 'DelegateResourceContract' || type === 'UnDelegateResourceContract') {
    const resource = value.resource === undefined ? 'BANDWIDTH' : value.resource;
    if (resource !== 'BANDWIDTH' && resource !== 'ENERGY') {
      throw invalidContract(`ResourceCode error, valid ResourceCode[BANDWIDTH、ENERGY]`);
    }
    const common = {
      owner: parseHexAddress(value.owner_address, 'ownerAddress'),
      receiver: parseHexAddress(value.receiver_address, 'receiverAddress'),
      balance: parseInt64(value.balance, 'balance'),
      resource: resource as ResourceCode,
    };
    call =
      type === 'DelegateResourceContract'
        ? {
            type,
            ...common,
            lock: value.lock === true,
            lockPeriod: parseInt64(value.lock_period, 'lock_period'),
          }
        : { type, ...common };
  } else {
    throw invalidContract(`the fake TRON node does not execute ${String(type)}`);
  }
  return {
    contract: call,
    permissionId: Number(parseInt64(contract.Permission_id, 'Permission_id')),
    refBlockBytes:
      json.ref_block_bytes === undefined ? '' : normalizeHex(json.ref_block_bytes, 'ref_block_bytes'),
    refBlockHash:
      json.ref_block_hash === undefined ? '' : normalizeHex(json.ref_block_hash, 'ref_block_hash'),
    expiration: Number(parseInt64(json.expiration, 'expiration')),
    timestamp: Number(parseInt64(json.timestamp, 'timestamp')),
    feeLimit: parseInt64(json.fee_limit, 'fee_limit'),
    memo: json.data === undefined ? '' : normalizeHex(json.data, 'data'),
  };
}

/** An int64 JSON field: a number, a decimal string, or absent (0). */
export function parseInt64(value: unknown, field: string): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new ServletError(
    'java.lang.NumberFormatException',
    `For input string: "${String(value)}" (${field})`,
  );
}

/**
 * The address that produced `signature` over `txID` (secp256k1, 65 bytes `r‖s‖v`,
 * v = 27/28 or 0/1, no extra hashing). Throws a SIGERROR refusal for malformed signatures.
 */
export function recoverSigner(txID: string, signature: string): HexAddress {
  const bytes = hexToBytes(normalizeSignature(signature));
  if (bytes.length !== 65) throw badSignature(`Signature size is ${bytes.length}`);
  let v = bytes[64] ?? 0;
  if (v >= 27) v -= 27;
  if (v > 3) throw badSignature('Header byte out of range');
  const recovered = new Uint8Array(65);
  recovered[0] = v;
  recovered.set(bytes.subarray(0, 64), 1);
  try {
    const compressed = secp256k1.recoverPublicKey(recovered, hexToBytes(txID), { prehash: false });
    return addressOfPublicKey(secp256k1.Point.fromBytes(compressed).toBytes(false));
  } catch (error) {
    throw badSignature(`sig error: ${(error as Error).message}`);
  }
}

/** Lowercase hex of a signature, refusing anything that is not hex. */
export function normalizeSignature(signature: unknown): string {
  if (typeof signature !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(signature)) {
    throw badSignature('Signature is not hex');
  }
  return signature.replace(/^0x/, '').toLowerCase();
}

/** Signs a txID like tronweb does (for the fake's witnesses and for tests): `r‖s‖v`, v = 27/28. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): string {
  const recovered = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' });
  return bytesToHex(recovered.subarray(1)) + ((recovered[0] ?? 0) + 27).toString(16);
}

/**
 * Bandwidth bytes java-tron charges: the size of the `Transaction` message without `ret`
 * (raw_data field + signature fields) plus MAX_RESULT_SIZE_IN_TX.
 */
export function bandwidthBytes(tx: Tx): number {
  const rawLength = tx.rawDataHex.length / 2;
  let size = 1 + varintLength(rawLength) + rawLength;
  for (const signature of tx.signatures) {
    const length = signature.length / 2;
    size += 1 + varintLength(length) + length;
  }
  return size + PARAMS.resultSizeBytes;
}

function varintLength(n: number): number {
  let length = 1;
  for (let rest = n >>> 7; rest > 0; rest >>>= 7) length += 1;
  return length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nullPointer(): ServletError {
  return new ServletError('java.lang.NullPointerException', 'null');
}
