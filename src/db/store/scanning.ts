import type { Family } from '../../domain/chains.ts';
import type { Order } from '../../domain/order.ts';
import type { BlockHash, Cursor, StoredTransfer, TransferWrite } from '../repositories/chain-scan.ts';
import type { OrderTransition } from '../repositories/orders.ts';

/** What the chain scanners read and write: checkpoints, watched addresses, transfers, and the deposit-address pool. Part of the Store port (../store.ts). */
export interface ScanStore {
  // Chain scanning: checkpoints and transfers (repositories/chain-scan.ts), the orders a scanner
  // watches (scan-orders.ts)
  /** The chain's scan checkpoint, or null before its first scan. */
  getCursor(chain: string): Promise<Cursor | null>;
  /** Every chain's checkpoint. */
  listCursors(): Promise<Cursor[]>;
  /**
   * The hashes of the blocks the checkpoint read while they were not final yet (from the final height
   * recorded with it up to its own height), lowest first.
   */
  unfinalBlocks(chain: string): Promise<BlockHash[]>;
  /**
   * Deposit addresses the scanner watches on a chain: collections not final yet, and collections whose
   * expiry is after `sinceMs` (so late payments are still seen and recorded); `native` says whether any
   * of them was ordered in the native coin (whose deposits cost a read of every block to find).
   */
  watchedAddresses(chain: string, sinceMs: number): Promise<{ addresses: Set<string>; native: boolean }>;
  /**
   * Creation time (ms) of the oldest collection on a chain whose payments a first scan must read: one
   * still open, or one that expired after `expiredSince` (on a chain with no checkpoint yet, such an
   * order expired without anyone reading the chain; its payment must still be found and listed).
   * Null when there is none.
   */
  oldestUnscannedCollectionAt(chain: string, expiredSince: number): Promise<number | null>;
  /** Collections on a chain by deposit address. */
  collectionsByAddress(chain: string, addresses: string[]): Promise<Map<string, Order>>;
  /** Open collections on a chain that already have a transaction (their confirmations move with the head). */
  collectionsAwaitingFinality(chain: string): Promise<Order[]>;
  /** Orders by internal id. */
  ordersByIds(ids: string[]): Promise<Map<string, Order>>;
  /** Stored transfers attributed to the given orders, grouped by order. */
  transfersOfOrders(orderRefs: string[]): Promise<Map<string, StoredTransfer[]>>;
  /** Stored transfers of a chain that belong to the given transactions. */
  transfersOfTransactions(chain: string, txids: string[]): Promise<StoredTransfer[]>;
  /** Transfers on a chain that are in a block but not final yet. */
  pendingTransfers(chain: string): Promise<StoredTransfer[]>;
  /** Transfers no order took (late, wrong token, no order), newest last. */
  unattributedTransfers(chain?: string): Promise<StoredTransfer[]>;
  /** Every transfer of a chain (tests and operators). */
  transfersOfChain(chain: string): Promise<StoredTransfer[]>;
  /**
   * Writes one scan step atomically: new or moved transfers (a transfer already final is never
   * touched), status changes of stored transfers (final, orphaned), order transitions with their
   * webhook events, and the checkpoint with the hashes of the blocks it read before they were final
   * (`blocks`; kept from the checkpoint's final height up to its height, the rest dropped). `reorg`
   * counts a reorganisation found. Nothing is written if any part fails (e.g. an order changed
   * meanwhile). `base`, when given, is the checkpoint the step continues from (null: none stored
   * yet); if the stored checkpoint (its height, heightHash and finalHeight) is not exactly that, the
   * call rejects with state_conflict and writes nothing: a step computed by a worker that lost its
   * lease, finished after the new holder moved the checkpoint, never lands. Without `base` the
   * checkpoint is written unconditionally.
   */
  recordScan(input: {
    chain: string;
    transfers: TransferWrite[];
    statusChanges: { id: string; status: 'final' | 'orphaned' }[];
    transitions: OrderTransition[];
    cursor: Omit<Cursor, 'chain'> | null;
    base?: Omit<Cursor, 'chain'> | null;
    blocks?: BlockHash[];
    reorg?: { depth: number } | null;
    now: number;
  }): Promise<void>;
  /** Forgets a chain's checkpoint, so its next scan starts afresh (a devnet chain that restarted empty). */
  resetCursor(chain: string): Promise<void>;
  // The deposit-address pool (repositories/deposit-addresses.ts)
  /** How many derived addresses of a family wait in the pool. */
  freeDepositAddressCount(family: Family): Promise<number>;
  /**
   * Adds derived addresses to the pool, starting at the next unused index. `derive` runs inside the
   * write transaction so indexes cannot collide with a concurrent allocation.
   */
  addToDepositPool(
    family: Family,
    howMany: number,
    derive: (family: Family, index: number) => string,
    now: number,
  ): Promise<number>;
}
