import { ChainError } from '../errors.ts';
import type { BlockRef, ObservedTransfer } from '../port.ts';
import { toBase58, wordToHex20 } from './address.ts';
import type { NodeJson } from './http.ts';

/**
 * Reading java-tron's block and TransactionInfo JSON (chains.md A.4, A.5) into the port's shapes.
 * Pure functions: the adapter fetches, these decide what a block holds for the addresses watched.
 */

/** keccak256("Transfer(address,address,uint256)") as TRON logs print it (no 0x). */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** What a scan looks for, keyed by the 20-byte hex form (no `41`, lowercase). */
export interface Watch {
  /** watched recipient → the address exactly as Kassa stores it (base58) */
  addresses: ReadonlyMap<string, string>;
  /** token contract → the contract string exactly as configured */
  tokens: ReadonlyMap<string, string>;
  /** whether TRX (TransferContract) deposits are wanted */
  native: boolean;
}

/** Transaction types that run TVM code and so can emit logs; blocks without them need no TransactionInfo. */
const TVM_TYPES = new Set(['TriggerSmartContract', 'CreateSmartContract']);

/** A java-tron int64 (JSON number, or decimal string when large) as a bigint; absent = 0. */
export function int64(value: unknown): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new ChainError('node_error', `not an int64: ${String(value)}`);
}

/** A height or a time in ms as a number. */
export function num(value: unknown): number {
  return Number(int64(value));
}

/** Whether the node answered "not found" (`{}`). */
export function isEmpty(json: NodeJson): boolean {
  return json === null || json === undefined || (typeof json === 'object' && Object.keys(json).length === 0);
}

/** Number, id, parent id and time (ms) of a node block; throws when the JSON is not a block. */
export function header(block: NodeJson): {
  number: number;
  id: string;
  parentId: string;
  timestampMs: number;
} {
  const raw = block?.block_header?.raw_data;
  if (typeof block?.blockID !== 'string' || raw === undefined)
    throw new ChainError('node_error', 'the node answered no block');
  return {
    number: num(raw.number),
    id: String(block.blockID).toLowerCase(),
    parentId: String(raw.parentHash ?? '').toLowerCase(),
    timestampMs: num(raw.timestamp),
  };
}

/** The port's BlockRef of a node block (hash = blockID, timestamp in unix seconds). */
export function blockRef(block: NodeJson): BlockRef {
  const h = header(block);
  return { number: h.number, hash: h.id, timestamp: Math.floor(h.timestampMs / 1000) };
}

function transactionsOf(block: NodeJson): NodeJson[] {
  return Array.isArray(block?.transactions) ? block.transactions : [];
}

/** Whether a block holds any transaction that could have emitted a log (only those need TransactionInfo). */
export function needsInfos(block: NodeJson): boolean {
  return transactionsOf(block).some((tx) => TVM_TYPES.has(tx?.raw_data?.contract?.[0]?.type));
}

/**
 * Checks that `infos` (gettransactioninfobyblocknum) describe exactly `block`: same number, same
 * time and the same transactions in the same order. Throws otherwise (the block changed between
 * the two requests: a fork; the caller retries).
 */
export function assertInfosMatch(block: NodeJson, infos: NodeJson): void {
  const h = header(block);
  const list: NodeJson[] = Array.isArray(infos) ? infos : [];
  const ids = transactionsOf(block).map((tx) => String(tx.txID).toLowerCase());
  const same =
    list.length === ids.length &&
    list.every(
      (info, i) =>
        String(info?.id).toLowerCase() === ids[i] &&
        num(info.blockNumber) === h.number &&
        num(info.blockTimeStamp) === h.timestampMs,
    );
  if (!same)
    throw new ChainError(
      'chain_moved',
      `block ${h.number} changed while it was read (a fork); it will be read again`,
    );
}

/** Whether a TransactionInfo says the transaction failed: `result: "FAILED"` or a receipt result other than SUCCESS. */
export function infoFailed(info: NodeJson): boolean {
  const receipt = info?.receipt?.result;
  return info?.result === 'FAILED' || (receipt !== undefined && receipt !== 'SUCCESS');
}

/** A Transfer log decoded: 20-byte hex addresses and the amount; undefined for any other log. */
export function decodeTransferLog(
  log: NodeJson,
): { token: string; from: string; to: string; amount: bigint } | undefined {
  const topics: unknown[] = Array.isArray(log?.topics) ? log.topics : [];
  if (String(topics[0] ?? '').toLowerCase() !== TRANSFER_TOPIC) return undefined;
  const data = String(log.data ?? '');
  const token = wordToHex20(String(log.address ?? ''));
  if (topics.length === 3 && data.length >= 64) {
    return {
      token,
      from: wordToHex20(String(topics[1])),
      to: wordToHex20(String(topics[2])),
      amount: BigInt(`0x${data.slice(0, 64)}`),
    };
  }
  if (topics.length === 1 && data.length >= 192) {
    // tokens that declare Transfer without `indexed` put all three values in data
    return {
      token,
      from: wordToHex20(data.slice(0, 64)),
      to: wordToHex20(data.slice(64, 128)),
      amount: BigInt(`0x${data.slice(128, 192)}`),
    };
  }
  return undefined;
}

/**
 * TRC-20 deposits in a block: every Transfer log of a watched token to a watched address, keyed by
 * the log's position inside its TransactionInfo (stable wherever the transaction is included).
 * Success comes from the receipt (`result`, `receipt.result`), never from the return value: mainnet
 * USDT returns false on success.
 */
export function tokenTransfers(block: NodeJson, infos: NodeJson, watch: Watch): ObservedTransfer[] {
  if (watch.tokens.size === 0 || watch.addresses.size === 0) return [];
  const ref = blockRef(block);
  const out: ObservedTransfer[] = [];
  for (const info of Array.isArray(infos) ? infos : []) {
    const logs: NodeJson[] = Array.isArray(info?.log) ? info.log : [];
    logs.forEach((log, position) => {
      const transfer = decodeTransferLog(log);
      if (!transfer) return;
      const contract = watch.tokens.get(transfer.token);
      const to = watch.addresses.get(transfer.to);
      if (contract === undefined || to === undefined) return;
      out.push({
        txid: String(info.id).toLowerCase(),
        eventKey: String(position),
        blockNum: ref.number,
        blockHash: ref.hash,
        timestamp: ref.timestamp,
        from: toBase58(transfer.from),
        to,
        contract,
        amountBase: transfer.amount,
        success: !infoFailed(info),
      });
    });
  }
  return out;
}

/** TRX deposits in a block: TransferContract transactions to a watched address (eventKey `native`). */
export function nativeTransfers(block: NodeJson, watch: Watch): ObservedTransfer[] {
  if (!watch.native || watch.addresses.size === 0) return [];
  const ref = blockRef(block);
  const out: ObservedTransfer[] = [];
  for (const tx of transactionsOf(block)) {
    const contract = tx?.raw_data?.contract?.[0];
    if (contract?.type !== 'TransferContract') continue;
    const value = contract.parameter?.value ?? {};
    const to = watch.addresses.get(
      String(value.to_address ?? '')
        .slice(-40)
        .toLowerCase(),
    );
    if (to === undefined) continue;
    const amount = int64(value.amount);
    if (amount <= 0n) continue;
    out.push({
      txid: String(tx.txID).toLowerCase(),
      eventKey: 'native',
      blockNum: ref.number,
      blockHash: ref.hash,
      timestamp: ref.timestamp,
      from: toBase58(String(value.owner_address)),
      to,
      contract: null,
      amountBase: amount,
      success: tx.ret?.[0]?.contractRet === 'SUCCESS',
    });
  }
  return out;
}
