import type { Family } from '../../domain/chains.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderCursor, OrderFilter, OrderPage } from '../repositories/order-search.ts';
import type { OrderStatRow } from '../repositories/order-stats.ts';
import type { NewOrder, OrderTransition } from '../repositories/orders.ts';
import type { FinalTransferRow, SliceCursor } from '../repositories/transfer-totals.ts';

/** Orders: creation, transitions with their webhook events, expiry, and the dashboard's lists and totals. Part of the Store port (../store.ts). */
export interface OrderStore {
  // Orders (repositories/orders.ts; createOrder in order-creation.ts)
  /** Finds a merchant's order by the merchant's orderId. */
  findOrderByMerchantOrderId(merchantId: string, orderId: string): Promise<Order | null>;
  /** Finds an order by its internal id. */
  findOrderById(id: string): Promise<Order | null>;
  /** The stored canonical parameters of an order, to tell a retry from a conflicting reuse. */
  orderParamsKey(id: string): Promise<string | null>;
  /**
   * Creates an order, idempotently on (merchant, orderId): when the orderId exists, nothing is
   * written and the existing order comes back with `created: false` (the caller compares
   * parameters). A collection takes the lowest free deposit address of its family from the pool, or
   * derives the next index with `derive` when the pool is empty; the address is never reused.
   * Group-committed with the other API writes (see batched-write.ts).
   */
  createOrder(input: {
    order: NewOrder;
    family: Family | null;
    derive: (family: Family, index: number) => string;
    now: number;
  }): Promise<{ order: Order; created: boolean; paramsKey: string }>;
  /**
   * Applies transitions inside the caller's transaction (or its own): each update is guarded by the
   * status and version the caller read, and writes its webhook event (outbox) beside it. An order
   * reaching a final state moves its merchant's money in the same transaction (ledger.ts: a paid
   * collection credits, a payout debits or releases what it froze) and closes the holds it waited on.
   * A guard miss is a conflict and throws, rolling back everything.
   */
  applyOrderTransitions(transitions: OrderTransition[], now: number): Promise<Order[]>;
  /**
   * Orders that may expire at `now`: payouts in INIT, and collections in INIT or PENDING whose chain's
   * scanner has read a block later than their expiry (`scannedUpTo`: per chain, epoch ms of the
   * checkpoint's block). A collection on a chain missing from `scannedUpTo` (never scanned) is never
   * returned, so a chain that is down or behind cannot crowd the others out of the `limit`.
   */
  findExpirableOrders(now: number, limit: number, scannedUpTo: ReadonlyMap<string, number>): Promise<Order[]>;
  // The dashboard's order list (repositories/order-search.ts)
  /**
   * One page of orders, newest first (creation time, then id), narrowed by `filter` and, with
   * `search`, to orders whose internal id, orderId, uid, deposit address, payout destination or any
   * transaction id (a transfer that paid it, a payout attempt) equals one of the terms.
   *
   * Stays fast on a large table by bounding the work of every request: a search looks up each kind
   * of term on its own index; a filter whose own index shows it matches at most DRIVER_CAP orders is
   * read through that index and sorted; anything broader walks the creation-time index newest
   * first, looking at no more than SCAN_WINDOW orders per request (then `partial` is true and `next`
   * continues where it stopped).
   */
  listOrdersPage(input: {
    filter: OrderFilter;
    search?: string[];
    after: OrderCursor | null;
    limit: number;
  }): Promise<OrderPage>;
  // Order statistics (repositories/order-stats.ts)
  /**
   * Orders created at or after `since`, oldest first, `limit` at a time after `after` (creation time
   * and id of the last row of the previous slice). Read through the creation-time index, so each
   * slice costs about `limit` row reads; callers yield to the event loop between slices.
   */
  orderStatsSlice(input: {
    since: number;
    after: { createdAt: number; id: string } | null;
    limit: number;
  }): Promise<OrderStatRow[]>;
  /** Orders not final yet (INIT, PENDING, PENDING_CONFIRMATION) counted by type and status, via the status index. */
  openOrderCounts(): Promise<{ type: string; status: string; n: number }[]>;
  // Deposit totals (repositories/transfer-totals.ts)
  /**
   * Final transfers to deposit addresses, `limit` rows of the table at a time from `after` (null: the
   * start), in storage order, so adding up a large table reads it sequentially (three times faster
   * than in id order here) and callers can yield to the event loop between slices. Returns the final
   * rows of the slice and the cursor of the next one (null after the last).
   */
  finalTransfersSlice(input: {
    after: SliceCursor | null;
    limit: number;
  }): Promise<{ rows: FinalTransferRow[]; next: SliceCursor | null }>;
}
