import { formatAmount } from '../domain/money.ts';
import type { OrderStatus } from '../domain/order.ts';
import { isFinalStatus } from '../domain/order.ts';
import type { Checkout } from '../services/get-checkout.ts';

/** The interface's PayinOrderVo (what GET /v1/order/pay returns), as the page reads it. */
export interface PayinOrderVo {
  orderId: string;
  chain: string;
  symbol: string;
  address: string;
  amount: string;
  actualAmount: string | null;
  expiredTime: number;
  status: OrderStatus;
  reason: string | null;
}

/** What the page needs beyond PayinOrderVo: progress of the payment and the clock it counts with. */
export interface CheckoutFacts {
  /** Total seen so far, final or not (decimal string). */
  received: string;
  /** What is still missing to cover the amount; "0.00" once covered. */
  remaining: string;
  /** Confirmations of the last transfer that moved the order; 0 before any. */
  confirmations: number;
  /** Confirmations the chain needs, or null when its finality rule (finalized tag, checkpoint) decides. */
  confirmationsRequired: number | null;
  txid: string | null;
  explorerUrl: string | null;
  /** Server clock (epoch ms) when this state was read. */
  serverTime: number;
  /** True for SUCCESS, EXPIRED and FAILED: nothing will change any more. */
  final: boolean;
}

/** The JSON of GET /checkout/state: PayinOrderVo fields plus the facts above. */
export type CheckoutState = PayinOrderVo & CheckoutFacts;

/** Derives the page's facts from a checkout read; amounts are formatted from base units, never rounded. */
export function checkoutFacts(view: Checkout): CheckoutFacts {
  const { order } = view;
  const missing = order.amountBase - order.receivedBase;
  return {
    received: formatAmount(order.receivedBase, order.decimals),
    remaining: formatAmount(missing > 0n ? missing : 0n, order.decimals),
    confirmations: order.transaction?.confirmedNum ?? 0,
    confirmationsRequired: view.confirmationsRequired === 'finalized' ? null : view.confirmationsRequired,
    txid: order.transaction?.txid ?? null,
    explorerUrl: view.explorerUrl,
    serverTime: view.now,
    final: isFinalStatus(order.status),
  };
}

/** What the page shows: the order's status, except that an unpaid order past its time shows as expired. */
export type CheckoutView = 'waiting' | 'seen' | 'confirming' | 'paid' | 'expired' | 'failed';

/** Maps a status to the view (the inline script applies the same rule in the browser). */
export function viewOf(status: OrderStatus, expiresAtMs: number, now: number): CheckoutView {
  switch (status) {
    case 'INIT':
      return now >= expiresAtMs ? 'expired' : 'waiting';
    case 'PENDING':
      return now >= expiresAtMs ? 'expired' : 'seen';
    case 'PENDING_CONFIRMATION':
      return 'confirming';
    case 'SUCCESS':
      return 'paid';
    case 'EXPIRED':
      return 'expired';
    case 'FAILED':
      return 'failed';
  }
}
