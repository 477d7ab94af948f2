/** The chains Kassa serves (the `chain` value of every request and answer). */
export type Chain = 'TRON' | 'ETH' | 'BSC' | 'POLYGON' | 'AVAX_C_CHAIN' | 'SUI';

/** The state of an order. Final states: SUCCESS, EXPIRED, FAILED. */
export type OrderStatus = 'INIT' | 'PENDING' | 'PENDING_CONFIRMATION' | 'SUCCESS' | 'EXPIRED' | 'FAILED';

/**
 * What a collection needs. Amounts are decimal strings (`"10.50"`), never numbers: Kassa refuses
 * more decimal places than the token has instead of rounding.
 */
export interface CreateCollectionInput {
  amount: string;
  symbol: string;
  chain: Chain;
  /**
   * Your unique order id (required for V3 merchants, at most 64 characters). When you leave it out,
   * the client makes one (`kc_…`) so that a retried request can never create a second order.
   */
  orderId?: string;
  /** Your user id (required for V2 merchants; not `0`). */
  uid?: string;
}

/** What a payout needs: a collection's fields plus the destination, validated for the chain. */
export interface CreatePayoutInput extends CreateCollectionInput {
  receiveAddress: string;
}

/** The answer to createCollection: where the customer pays, and the hosted checkout page. */
export interface CollectionCreated {
  /** The deposit address made for this order alone. */
  address: string;
  amount: string;
  symbol: string;
  chain: Chain;
  orderId: string;
  uid: string | null;
  /** Unix seconds after which the address takes no new payment for this order. */
  expiredTime: number;
  paymentUrl: string;
}

/** The answer to createPayout: `address` is the hot wallet the payout is sent from. */
export interface PayoutCreated {
  address: string;
  amount: string;
  symbol: string;
  chain: Chain;
  orderId: string;
  /** Unix seconds after which the payout is not sent any more. */
  expiredTime: number;
}

/** The transaction that last moved an order. */
export interface OrderTransaction {
  chain: Chain;
  symbol: string;
  txid: string;
  from: string;
  to: string;
  amount: string;
  blockNum: number;
  confirmedNum: number;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  /** Unix seconds of the block. */
  timestamp: number;
}

/** An order in full (GET /v1/order/status/{orderId}, and the `data` of every webhook). */
export interface NotifyOrder {
  orderId: string;
  uid: string | null;
  orderType: 'COLLECTION' | 'PAYOUT';
  status: OrderStatus;
  reason: string | null;
  amount: string;
  actualAmount: string | null;
  fee: string;
  transaction: OrderTransaction | null;
}

/** What the checkout page shows (GET /v1/order/pay). */
export interface CheckoutOrder {
  orderId: string;
  chain: Chain;
  symbol: string;
  address: string;
  amount: string;
  actualAmount: string | null;
  expiredTime: number;
  status: OrderStatus;
  reason: string | null;
}

/** A token Kassa accepts (GET /v1/symbol/supportSymbols). */
export interface SupportSymbol {
  symbol: string;
  chain: Chain;
  contractAddress: string | null;
  decimals: number;
}

/** A merchant's balance of one token on one chain (POST /v1/merchant/getBalance). */
export interface MerchantBalance {
  chain: Chain;
  symbol: string;
  /** What payouts may use now. */
  balance: string;
  /** Held by payouts not finished yet. */
  frozenBalance: string;
  totalBalance: string;
  /** Unix seconds of the last movement; null for a token never moved. */
  updateTime: number | null;
}

/** The event types Kassa sends; handle the ones you know and answer 2xx to the rest. */
export type NotifyType =
  | 'ORDER_PENDING'
  | 'ORDER_PENDING_CONFIRMATION'
  | 'ORDER_SUCCESS'
  | 'ORDER_FAILED'
  | 'ORDER_EXPIRED'
  | 'ORDER_REVERTED'
  | 'WEBHOOK_TEST';

/** A verified webhook. `eventId` is stable across retries: dedupe on it. */
export type WebhookEvent =
  | {
      eventId: string;
      notifyType: Exclude<NotifyType, 'WEBHOOK_TEST'>;
      timestamp: number;
      nonce: string;
      data: NotifyOrder;
      sign: string;
    }
  | {
      eventId: string;
      notifyType: 'WEBHOOK_TEST';
      timestamp: number;
      nonce: string;
      data: { test: true; merchantId: string; message: string };
      sign: string;
    };
