import type { ObservedTransfer } from '../../chains/port.ts';
import { isFinalStatus, type Order } from '../../domain/order.ts';

/** Why a transfer to a deposit address is not credited to the collection there. */
export type UnattributedReason = 'no-order' | 'wrong-token' | 'late' | 'order-final';

/** How a transfer is recorded: its status, and the collection it counts for or why none. */
export interface Attribution {
  status: 'failed' | 'final' | 'pending';
  /** The collection credited (its internal id), or null. */
  orderRef: string | null;
  reason: UnattributedReason | null;
}

function sameContract(a: string | null, b: string | null): boolean {
  return (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
}

/**
 * Decides how one observed transfer is recorded (pure): `failed` when its transaction failed, else
 * `final` at or below the chain's final height and `pending` above it; credited to the collection
 * at its address unless there is none (`no-order`), it pays another token (`wrong-token`, contracts
 * compared without case), its block is later than the order's expiry (`late`), or the order is
 * already final and this transfer was not part of it (`order-final`; a transfer it was already
 * credited with, seen again after a reorganisation, stays credited).
 */
export function attribute(
  t: Pick<ObservedTransfer, 'contract' | 'timestamp' | 'blockNum' | 'success'>,
  order: Pick<Order, 'id' | 'tokenContract' | 'expiresAt' | 'status'> | undefined,
  facts: { alreadyCredited: boolean; finalHeight: number },
): Attribution {
  const status = !t.success ? 'failed' : t.blockNum <= facts.finalHeight ? 'final' : 'pending';
  let reason: UnattributedReason | null = null;
  if (!order) reason = 'no-order';
  else if (!sameContract(order.tokenContract, t.contract)) reason = 'wrong-token';
  else if (t.timestamp * 1000 > order.expiresAt) reason = 'late';
  else if (isFinalStatus(order.status) && !facts.alreadyCredited) reason = 'order-final';
  return { status, orderRef: reason || !order ? null : order.id, reason };
}

export { sameContract };
