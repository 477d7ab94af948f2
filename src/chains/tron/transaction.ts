import { utils } from 'tronweb';
import { ChainError } from '../errors.ts';

/**
 * TRON transactions built and signed locally (chains.md A.3): the node only supplies the reference
 * block, so it can never change a recipient or an amount. `raw_data_hex` and `txID` come from
 * tronweb's own protobuf encoder (txID = sha256 of the raw bytes); the signature is secp256k1 over
 * the txID, r‖s‖v with v = 27 + recovery id.
 */

const TYPE_URL = 'type.googleapis.com/protocol.';

/**
 * The one contract of a transaction Kassa signs, in node JSON (hex addresses, visible=false): a
 * TRX transfer, a TRC-20 call, or (sweeps) Stake 2.0 energy lent to a deposit address and taken back.
 */
export type PayoutContract =
  | { type: 'TransferContract'; owner: string; to: string; amountSun: bigint }
  | { type: 'TriggerSmartContract'; owner: string; contract: string; data: string }
  | {
      type: 'DelegateResourceContract' | 'UnDelegateResourceContract';
      owner: string;
      receiver: string;
      balanceSun: bigint;
    };

/** A transaction as the node's JSON carries it; `signature` once signed. */
export interface TronTx {
  visible: false;
  txID: string;
  raw_data: Record<string, unknown>;
  raw_data_hex: string;
  signature?: string[];
}

/** The reference block and times of a new transaction. Times in epoch ms. */
export interface TxTiming {
  /** blockID of the reference block (TaPoS) */
  refBlockId: string;
  expiration: number;
  timestamp: number;
}

function contractJson(call: PayoutContract): Record<string, unknown> {
  if (call.type === 'TransferContract') {
    if (call.amountSun <= 0n || call.amountSun > BigInt(Number.MAX_SAFE_INTEGER))
      throw new RangeError(`TRX amount out of range: ${call.amountSun}`);
    return {
      parameter: {
        value: { amount: Number(call.amountSun), owner_address: call.owner, to_address: call.to },
        type_url: `${TYPE_URL}TransferContract`,
      },
      type: 'TransferContract',
    };
  }
  if (call.type === 'TriggerSmartContract') {
    return {
      parameter: {
        value: { data: call.data, owner_address: call.owner, contract_address: call.contract },
        type_url: `${TYPE_URL}TriggerSmartContract`,
      },
      type: 'TriggerSmartContract',
    };
  }
  if (call.balanceSun <= 0n || call.balanceSun > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`delegated TRX out of range: ${call.balanceSun}`);
  return {
    parameter: {
      value: {
        owner_address: call.owner,
        resource: 'ENERGY',
        balance: Number(call.balanceSun),
        receiver_address: call.receiver,
      },
      type_url: `${TYPE_URL}${call.type}`,
    },
    type: call.type,
  };
}

/** Encodes `raw_data` with tronweb's protobuf encoder: its hex and its txID (lowercase, no 0x). */
export function encodeRawData(rawData: Record<string, unknown>): { rawDataHex: string; txID: string } {
  const pb = utils.transaction.txJsonToPb({ visible: false, raw_data: rawData });
  return {
    rawDataHex: String(utils.transaction.txPbToRawDataHex(pb)).toLowerCase(),
    txID: String(utils.transaction.txPbToTxID(pb)).replace(/^0x/, '').toLowerCase(),
  };
}

/** An unsigned transaction for `call` (fee_limit in sun, only for contract calls). */
export function buildTransaction(call: PayoutContract, timing: TxTiming, feeLimit: bigint): TronTx {
  if (!/^[0-9a-f]{64}$/.test(timing.refBlockId))
    throw new ChainError('bad_request', 'bad reference block id');
  const rawData: Record<string, unknown> = {
    contract: [contractJson(call)],
    ref_block_bytes: timing.refBlockId.slice(12, 16),
    ref_block_hash: timing.refBlockId.slice(16, 32),
    expiration: timing.expiration,
    timestamp: timing.timestamp,
  };
  if (feeLimit > 0n) rawData.fee_limit = Number(feeLimit);
  const { rawDataHex, txID } = encodeRawData(rawData);
  return { visible: false, txID, raw_data: rawData, raw_data_hex: rawDataHex };
}

/** Signs a transaction with a 32-byte secp256k1 key, after checking its txID really is sha256(raw_data). */
export function signTransaction(tx: TronTx, privateKey: Buffer): TronTx {
  const { rawDataHex, txID } = encodeRawData(tx.raw_data);
  if (txID !== tx.txID || rawDataHex !== tx.raw_data_hex)
    throw new ChainError('bad_request', 'txID does not match raw_data');
  const signature = utils.crypto.ECKeySign(Buffer.from(txID, 'hex'), privateKey);
  return { ...tx, signature: [signature.toLowerCase()] };
}

/** The expiration (epoch ms) of a stored signed transaction. */
export function expirationOf(tx: TronTx): number {
  return Number(tx.raw_data.expiration);
}
