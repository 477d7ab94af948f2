import type { NotifyOrder } from './notify-order.ts';

/**
 * The webhook events XPay Labs actually sends (reference/xpay-behaviour.md §2.1). A merchant in
 * XPay mode gets only these: never ORDER_PENDING (XPay has the name but never sends it) nor
 * ORDER_REVERTED (Kassa's own, issue 19), which XPay's Java SDK could not even parse.
 */
export const XPAY_NOTIFY_TYPES: ReadonlySet<string> = new Set([
  'ORDER_PENDING_CONFIRMATION',
  'ORDER_SUCCESS',
  'ORDER_FAILED',
  'ORDER_EXPIRED',
]);

/** What an order's token adds to XPay's Transaction: its decimals and contract (null: native coin). */
export interface XpayTokenFacts {
  decimals: number;
  contract: string | null;
}

/** XPay's Transaction object: amount in base units, block time in milliseconds. */
export interface XpayTransaction {
  chain: string;
  symbol: string;
  blockNum: number;
  txid: string;
  contractAddress: string | null;
  from: string;
  to: string;
  /** The transfer in the token's base units, as a decimal integer string ("1500000" for 1.5 USDT-6). */
  amount: string;
  decimals: number;
  /** Block time in epoch milliseconds. */
  timestamp: number;
  /** Gas of the transaction: Kassa does not record it (always null, left out of webhooks). */
  txGas: null;
  confirmedNum: number;
  status: string;
}

/** XPay's NotifyOrder, its members in XPay's order. */
export interface XpayNotifyOrder {
  orderId: string;
  uid: string | null;
  orderType: string;
  reason: string | null;
  status: string;
  amount: string;
  actualAmount: string | null;
  fee: string;
  transaction: XpayTransaction | null;
}

/** A decimal string formatted from base units back to them, exactly (zero allowed). */
function toBaseUnits(text: string, decimals: number): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  const fraction = (m?.[2] ?? '').replace(/0+$/, '');
  if (!m || fraction.length > decimals)
    throw new RangeError(`not an amount of ${decimals} decimals: ${text}`);
  return (
    BigInt(m[1] ?? '0') * 10n ** BigInt(decimals) +
    BigInt(fraction.padEnd(decimals, '0') || '0')
  ).toString();
}

/**
 * The XPay form of a NotifyOrder (what `GET /v1/order/status/{orderId}` answers and webhooks carry
 * for a merchant in XPay mode): XPay's member order, the transaction amount in base units with its
 * `decimals` and `contractAddress`, and the block time in milliseconds. Nulls stay (webhooks drop
 * them: {@link withoutNulls}). Throws RangeError if the transaction amount does not fit `decimals`.
 */
export function toXpayNotifyOrder(order: NotifyOrder, token: XpayTokenFacts): XpayNotifyOrder {
  const tx = order.transaction;
  return {
    orderId: order.orderId,
    uid: order.uid,
    orderType: order.orderType,
    reason: order.reason,
    status: order.status,
    amount: order.amount,
    actualAmount: order.actualAmount,
    fee: order.fee,
    transaction: tx
      ? {
          chain: tx.chain,
          symbol: tx.symbol,
          blockNum: tx.blockNum,
          txid: tx.txid,
          contractAddress: token.contract,
          from: tx.from,
          to: tx.to,
          amount: toBaseUnits(tx.amount, token.decimals),
          decimals: token.decimals,
          timestamp: tx.timestamp * 1000,
          txGas: null,
          confirmedNum: tx.confirmedNum,
          status: tx.status,
        }
      : null,
  };
}

/**
 * A copy of a JSON value without null members, at every depth: the shape in which XPay's node SDK
 * (which signs `k=null`) and its Java SDK and server (which leave nulls out) compute the same
 * signature (reference/xpay-behaviour.md §2.2). Array items are kept as they are.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}
