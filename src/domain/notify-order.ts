import { formatAmount } from './money.ts';
import type { Order } from './order.ts';

/** The interface's NotifyOrder: what `status/{orderId}` returns and what webhooks carry in `data`. */
export interface NotifyOrder {
  orderId: string;
  uid: string | null;
  orderType: Order['type'];
  status: Order['status'];
  reason: string | null;
  amount: string;
  actualAmount: string | null;
  fee: string;
  transaction: {
    chain: string;
    symbol: string;
    txid: string;
    from: string;
    to: string;
    amount: string;
    blockNum: number;
    confirmedNum: number;
    status: string;
    timestamp: number;
  } | null;
}

/** Builds the NotifyOrder view of an order; amounts are formatted from base units. */
export function toNotifyOrder(order: Order): NotifyOrder {
  const tx = order.transaction;
  return {
    orderId: order.orderId,
    uid: order.uid,
    orderType: order.type,
    status: order.status,
    reason: order.reason,
    amount: order.amount,
    actualAmount:
      order.actualAmountBase === null ? null : formatAmount(order.actualAmountBase, order.decimals),
    fee: order.fee,
    transaction: tx
      ? {
          chain: tx.chain,
          symbol: tx.symbol,
          txid: tx.txid,
          from: tx.from,
          to: tx.to,
          amount: formatAmount(tx.amountBase, order.decimals),
          blockNum: tx.blockNum,
          confirmedNum: tx.confirmedNum,
          status: tx.status,
          timestamp: tx.timestamp,
        }
      : null,
  };
}
