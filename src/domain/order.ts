import type { Chain } from './chains.ts';

export const ORDER_STATUSES = [
  'INIT',
  'PENDING',
  'PENDING_CONFIRMATION',
  'SUCCESS',
  'EXPIRED',
  'FAILED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderType = 'COLLECTION' | 'PAYOUT';
export type MerchantKind = 'V2' | 'V3';

/** Status of the Transaction object inside NotifyOrder. */
export type TxStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** The last on-chain transfer that moved an order (the interface's Transaction object). */
export interface OrderTransaction {
  chain: Chain;
  symbol: string;
  txid: string;
  from: string;
  to: string;
  amountBase: bigint;
  blockNum: number;
  confirmedNum: number;
  status: TxStatus;
  /** Unix seconds of block inclusion. */
  timestamp: number;
}

/** An order as the services see it. Money is in base units; `amount` keeps the request's text. */
export interface Order {
  /** Internal id (`ord_…`); never shown to merchants, who use `orderId`. */
  id: string;
  merchantId: string;
  orderId: string;
  uid: string | null;
  type: OrderType;
  chain: Chain;
  symbol: string;
  /** Token contract, coin type, or null for the chain's native coin. */
  tokenContract: string | null;
  decimals: number;
  /** The requested amount exactly as the merchant wrote it. */
  amount: string;
  amountBase: bigint;
  fee: string;
  status: OrderStatus;
  reason: string | null;
  /** Collection: the deposit address. Payout: the hot wallet it is sent from. */
  address: string;
  /** Payout destination; null for collections. */
  receiveAddress: string | null;
  /** Epoch milliseconds after which the order expires. */
  expiresAt: number;
  /** Collection: total seen so far (final or not). Payout: 0. */
  receivedBase: bigint;
  /** Amount actually received (collection, once confirmed) or paid (payout, once sent). */
  actualAmountBase: bigint | null;
  transaction: OrderTransaction | null;
  createdAt: number;
  updatedAt: number;
}

/** Final states never change again. */
export function isFinalStatus(status: OrderStatus): boolean {
  return status === 'SUCCESS' || status === 'EXPIRED' || status === 'FAILED';
}
