import type { Order, OrderStatus, OrderTransaction } from './order.ts';
import { type OrderEvent, transition } from './order-state.ts';

/** A recorded transfer to a collection's deposit address, as far as the order's state depends on it. */
export interface TransferFact {
  txid: string;
  eventKey: string;
  blockNum: number;
  /** Unix seconds. */
  timestamp: number;
  from: string;
  to: string;
  amountBase: bigint;
  /** pending: in a block, not final yet; final: final under the chain's policy; orphaned: removed by a reorganisation; failed: the transaction failed. */
  status: 'pending' | 'final' | 'orphaned' | 'failed';
}

/** The `reason` of a collection that a reorganisation rolled back to INIT. */
export const REORG_REVERT_REASON = 'The payment was removed by a chain reorganisation.';

/** The changes a collection needs so that it agrees with its transfers. */
export interface CollectionChange {
  status: OrderStatus;
  /** REORG_REVERT_REASON after a rollback to INIT (kept while the order waits again), else null. */
  reason: string | null;
  receivedBase: bigint;
  actualAmountBase: bigint | null;
  transaction: OrderTransaction | null;
}

function order_(a: TransferFact, b: TransferFact): number {
  return a.blockNum - b.blockNum || a.txid.localeCompare(b.txid) || a.eventKey.localeCompare(b.eventKey);
}

function eventFor(from: OrderStatus, to: OrderStatus): OrderEvent {
  if (to === 'SUCCESS') return 'settled';
  if (to === 'PENDING_CONFIRMATION') return 'covered_seen';
  if (to === 'PENDING') return 'partial_seen';
  if (to === 'INIT') return 'rolled_back';
  throw new Error(`no collection event leads from ${from} to ${to}`);
}

/**
 * Recomputes a collection's state from its recorded transfers (never from its previous state): the
 * sum of final transfers covering the amount settles it (SUCCESS, `actualAmount` = that sum, so an
 * over-payment shows); a covering sum not yet final waits (PENDING_CONFIRMATION); anything less is
 * PENDING; nothing left after a reorganisation rolls it back to INIT with REORG_REVERT_REASON as
 * its reason (cleared when a payment is seen again). `transaction` is the latest
 * transfer that moved the order, with its confirmations at `head`. Returns null when the order
 * already agrees. Throws state_conflict if the order is final (callers never pass final orders).
 */
export function collectionProgress(
  order: Order,
  facts: TransferFact[],
  head: number,
): CollectionChange | null {
  const counted = facts.filter((f) => f.status === 'pending' || f.status === 'final').sort(order_);
  const seen = counted.reduce((sum, f) => sum + f.amountBase, 0n);
  const final = counted.filter((f) => f.status === 'final').reduce((sum, f) => sum + f.amountBase, 0n);
  const status: OrderStatus =
    final >= order.amountBase
      ? 'SUCCESS'
      : seen >= order.amountBase
        ? 'PENDING_CONFIRMATION'
        : seen > 0n
          ? 'PENDING'
          : 'INIT';
  const last =
    counted.at(-1) ??
    facts
      .filter((f) => f.status === 'failed' || f.status === 'orphaned')
      .sort(order_)
      .at(-1);
  const transaction: OrderTransaction | null = last
    ? {
        chain: order.chain,
        symbol: order.symbol,
        txid: last.txid,
        from: last.from,
        to: last.to,
        amountBase: last.amountBase,
        blockNum: last.blockNum,
        confirmedNum:
          last.status === 'pending' || last.status === 'final' ? Math.max(0, head - last.blockNum + 1) : 0,
        status: last.status === 'final' ? 'SUCCESS' : last.status === 'pending' ? 'PENDING' : 'FAILED',
        timestamp: last.timestamp,
      }
    : null;
  const reason = status !== 'INIT' ? null : order.status === 'INIT' ? order.reason : REORG_REVERT_REASON;
  const change: CollectionChange = {
    status,
    reason,
    receivedBase: seen,
    actualAmountBase: status === 'SUCCESS' ? final : null,
    transaction,
  };
  if (status !== order.status) transition('COLLECTION', order.status, eventFor(order.status, status));
  const same =
    status === order.status &&
    reason === order.reason &&
    seen === order.receivedBase &&
    change.actualAmountBase === order.actualAmountBase &&
    JSON.stringify(transaction, bigintJson) === JSON.stringify(order.transaction, bigintJson);
  return same ? null : change;
}

function bigintJson(_key: string, value: unknown) {
  return typeof value === 'bigint' ? value.toString() : value;
}
