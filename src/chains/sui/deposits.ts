/**
 * Deposits from one checkpoint: every positive balance change to a watched address in a watched
 * coin type. Balance changes cover coin objects and SIP-58 address balances alike, so a deposit
 * made with `send_funds` (no coin object) is seen too. A balance change is the net movement per
 * (owner, coin type) of one transaction, so (digest, owner, coin type) keys a deposit uniquely.
 */
import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import type { BlockRef, ObservedTransfer, TokenSpec } from '../port.ts';
import type { Checkpoint } from './grpc.ts';

/** `0x2::sui::SUI` in the long form the node prints. */
export const SUI_COIN_TYPE = normalizeStructTag('0x2::sui::SUI');

/** The long form of a coin type, or null when `type` is not a struct tag. */
export function normalizeCoinType(type: string): string | null {
  try {
    return normalizeStructTag(type.trim());
  } catch {
    return null;
  }
}

/**
 * Watched tokens by normalised coin type (the native coin as `0x2::sui::SUI`), each mapped to the
 * spelling the configuration uses, which is what transfers report as `contract`.
 */
export function tokensByCoinType(tokens: readonly TokenSpec[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const token of tokens) {
    const type = token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(token.contract);
    if (type !== null) out.set(type, token.contract);
  }
  return out;
}

/** The key that tells deposits of one transaction apart: owner and coin type (long form). */
export function depositEventKey(owner: string, coinType: string): string {
  return `${owner}:${coinType}`;
}

/** The block reference of a checkpoint read with at least sequence number, digest and summary timestamp. */
export function checkpointRef(checkpoint: Checkpoint): BlockRef {
  return {
    number: Number(checkpoint.sequenceNumber ?? 0n),
    hash: checkpoint.digest ?? '',
    timestamp: Number(checkpoint.summary?.timestamp?.seconds ?? 0n),
  };
}

/**
 * The deposits in a checkpoint to `addresses` (lowercase 0x + 64 hex, as Kassa stores them) in the
 * coin types of `watched`. A failed transaction moves nothing but its gas payer's SUI, so its SUI
 * changes are skipped; any other positive change it reports is returned with `success: false` so it
 * is recorded and never credited.
 */
export function depositsInCheckpoint(
  checkpoint: Checkpoint,
  addresses: ReadonlySet<string>,
  watched: ReadonlyMap<string, string | null>,
): ObservedTransfer[] {
  const block = checkpointRef(checkpoint);
  const out: ObservedTransfer[] = [];
  for (const tx of checkpoint.transactions) {
    const success = tx.effects?.status?.success === true;
    for (const change of tx.balanceChanges) {
      if (!change.address || !change.coinType || !change.amount) continue;
      const amount = BigInt(change.amount);
      if (amount <= 0n) continue;
      const owner = normalizeSuiAddress(change.address);
      if (!addresses.has(owner)) continue;
      const coinType = normalizeCoinType(change.coinType);
      if (coinType === null || !watched.has(coinType)) continue;
      if (!success && coinType === SUI_COIN_TYPE) continue;
      out.push({
        txid: tx.digest ?? '',
        eventKey: depositEventKey(owner, coinType),
        blockNum: block.number,
        blockHash: block.hash,
        timestamp: block.timestamp,
        from: tx.transaction?.sender ? normalizeSuiAddress(tx.transaction.sender) : '',
        to: owner,
        contract: watched.get(coinType) ?? null,
        amountBase: amount,
        success,
      });
    }
  }
  return out;
}
