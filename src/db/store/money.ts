import type { Balance } from '../../domain/ledger.ts';
import type { Order, OrderStatus } from '../../domain/order.ts';
import type { BalanceKey, LedgerEntry, MerchantBalance } from '../repositories/ledger.ts';
import type { NewOrder, OrderTransition } from '../repositories/orders.ts';
import type { PayoutFacts } from '../repositories/payout-acceptance.ts';
import type { HoldKind, PayoutHold } from '../repositories/payout-holds.ts';
import type { PayoutListing } from '../repositories/payout-queue.ts';
import type { AttemptUpdate, NewAttempt, PayoutAttempt } from '../repositories/payouts.ts';

/**
 * Merchant balances and the ledger, payouts with their attempts and holds. Part of the Store port
 * (../store.ts).
 */
export interface MoneyStore {
  // Merchant balances and the ledger (repositories/ledger.ts; the entries read back in ledger-entries.ts)
  /**
   * Records an operator's top-up or correction of a merchant's available balance, with the reason the
   * entry keeps. Throws `ledger_negative` when a negative adjustment exceeds what is available
   * (frozen money belongs to payouts in flight and cannot be adjusted away). With
   * `expectLastAdjustment`, the merchant's newest adjustment must still be that one (null: none
   * yet), or nothing is written (`state_conflict`): a form submitted twice adjusts once.
   */
  adjustBalance(
    input: BalanceKey & {
      amountBase: bigint;
      reason: string;
      now: number;
      expectLastAdjustment?: string | null;
    },
  ): Promise<MerchantBalance>;
  /** The id of a merchant's newest operator adjustment, or null when there is none. */
  lastAdjustmentId(merchantId: string): Promise<string | null>;
  /** Balances, optionally of one merchant, chain or symbol, ordered by merchant, chain and symbol. */
  listBalances(filter?: { merchantId?: string; chain?: string; symbol?: string }): Promise<MerchantBalance[]>;
  /**
   * A merchant's ledger entries in the order they were written (oldest first), at most `limit`, each
   * with the merchant's orderId of the order that caused it (null for adjustments).
   */
  listLedgerEntries(filter: {
    merchantId: string;
    limit?: number;
  }): Promise<(LedgerEntry & { orderId: string | null })[]>;
  /**
   * One page of a merchant's ledger, newest first: at most `limit` entries written before the
   * `before` entry (by time, then id), each with the merchant's orderId of the order that caused it.
   * Read through the (merchant, time) index, so a page costs the same however long the ledger is.
   */
  pageLedgerEntries(filter: {
    merchantId: string;
    before: { createdAt: number; id: string } | null;
    limit: number;
  }): Promise<(LedgerEntry & { orderId: string | null })[]>;
  /** The ledger entries one order caused (its credit, or its freeze and then debit or release), oldest first. */
  ledgerEntriesOfOrder(orderRef: string): Promise<LedgerEntry[]>;
  /**
   * Every balance recomputed from the entries alone (merchant, chain, symbol → sums), to check the
   * running balances against: they must always be equal.
   */
  sumLedgerEntries(): Promise<Map<string, Balance>>;
  // Payouts: acceptance (repositories/payout-acceptance.ts), attempts (payouts.ts), operator
  // decisions on holds (payout-decisions.ts), the listing (payout-queue.ts)
  /**
   * Accepts a payout in one write transaction (group-committed with the API's other writes): when
   * the merchant already used the orderId, nothing is written and the existing order comes back
   * (`created: false`). Otherwise the facts are read, `judge` decides (it throws to refuse: nothing is
   * written), and the order is inserted in INIT with `amount + fee` frozen on the merchant's ledger
   * (`freezeBase`, null when the ledger check is off) and an approval hold when it needs one. Because
   * the check and the insert share the transaction, concurrent requests see each other.
   */
  acceptPayout(input: {
    order: NewOrder & { address: string; reason: string | null };
    freezeBase: bigint | null;
    approval: string | null;
    nativeSymbol: string | null;
    /** When the hot wallet's balance was read (payouts first seen mined since then still count). */
    balanceReadAt: number;
    /** Start of the rolling day for the daily limit. */
    dayStart: number;
    judge: (facts: PayoutFacts) => void;
    now: number;
  }): Promise<{ order: Order; created: boolean; paramsKey: string }>;
  /** Attempts of a chain that may still land (signed, broadcast or mined, not final), oldest first. */
  liveAttempts(chain: string): Promise<PayoutAttempt[]>;
  /** Every attempt of one payout, oldest first. */
  attemptsOfOrder(orderRef: string): Promise<PayoutAttempt[]>;
  /**
   * Payouts of a chain that need a transaction in a new spend slot: INIT ones, and PENDING ones whose
   * every attempt was proven unable to land (or given up by the operator). Payouts on hold (awaiting
   * approval, or stuck until the operator decides) are left alone. Oldest first; `retriedByOperator`
   * marks those the operator told to send again (`kassa payouts retry`) that have not been signed
   * since: the operator's decision stands even past the payout's expiry.
   */
  payoutsToSend(chain: string, limit: number): Promise<(Order & { retriedByOperator: boolean })[]>;
  /**
   * The highest nonce this database ever signed from an address on a chain (dropped ones included),
   * payouts and sweep transactions alike, or -1.
   */
  highestNonce(chain: string, from: string): Promise<number>;
  /**
   * Transactions Kassa recorded from a wallet for other payouts that may share a payout's spend slot:
   * on EVM those at the same nonce, elsewhere the most recent ones (the adapter checks which share
   * input objects). What `judgeSlot` needs to tell "used by us" from "used by someone else".
   */
  recordedSpends(input: {
    chain: string;
    from: string;
    exceptOrder: string;
    nonce: number | null;
    limit?: number;
  }): Promise<PayoutAttempt[]>;
  /**
   * Commits a payout to a signed transaction before anything is sent: stores the attempt and moves
   * the order to PENDING (or keeps it there with the new transaction) in one transaction, so neither
   * the expiry job nor a crash can separate "signed" from "committed to send". A replacement must use
   * the slot of the attempt it replaces (same nonce, same payout). Throws state_conflict if the order
   * changed meanwhile (nothing is stored, nothing was sent).
   */
  commitSignedPayout(input: { attempt: NewAttempt; transition: OrderTransition; now: number }): Promise<void>;
  /**
   * Records what the chain says about attempts, moves their payouts and closes stuck holds whose
   * transaction showed up after all, atomically.
   */
  recordPayoutProgress(input: {
    attempts: AttemptUpdate[];
    transitions: OrderTransition[];
    landed?: string[];
    now: number;
  }): Promise<void>;
  /**
   * Holds a payout whose spend slot was used by something Kassa cannot identify: it stays PENDING and
   * is never given a new slot until the operator retries or fails it. Only while the judged
   * transactions (`attempts`, by id) are still followed: once the operator gave them up (retried or
   * failed the payout since they were read), that decision stands and nothing is held. Answers
   * `held` (a new hold), `still held` or `decided` (nothing held).
   */
  holdPayout(input: {
    orderRef: string;
    attempts: string[];
    reason: string;
    now: number;
  }): Promise<'held' | 'still held' | 'decided'>;
  /** The open holds of some payouts, by order. */
  holdsOf(orderRefs: string[]): Promise<Map<string, PayoutHold[]>>;
  /**
   * Every hold a payout had, open and resolved, oldest first: the record of what it waited for and
   * what the operator decided.
   */
  holdHistoryOf(orderRef: string): Promise<PayoutHold[]>;
  /** Approves a payout waiting for approval: the sender signs it on its next pass. */
  approvePayout(input: { orderRef: string; now: number }): Promise<Order>;
  /** Rejects a payout waiting for approval: FAILED with the operator's reason (webhook, frozen balance released). */
  rejectPayout(input: { orderRef: string; reason: string; now: number }): Promise<Order>;
  /**
   * The operator checked the chain and found that a held payout's transaction never landed: its
   * attempts are given up and the sender signs it again in a new slot.
   */
  retryHeldPayout(input: { orderRef: string; now: number }): Promise<{ order: Order; givenUp: number }>;
  /**
   * The operator ends a held payout: FAILED with the reason (webhook, frozen balance released); its
   * attempts are no longer followed.
   */
  failHeldPayout(input: { orderRef: string; reason: string; now: number }): Promise<Order>;
  /**
   * Payouts, newest first: of one merchant, in one status, only those held as stuck or only those
   * awaiting approval, at most `limit`.
   */
  listPayouts(filter?: {
    merchantId?: string;
    status?: OrderStatus;
    hold?: HoldKind;
    orderId?: string;
    limit?: number;
  }): Promise<PayoutListing[]>;
  /** Payouts with an open hold, per chain and kind (for /metrics). */
  heldPayoutCounts(): Promise<{ chain: string; kind: HoldKind; n: number }[]>;
  // Open payouts for the dashboard (repositories/payout-queue.ts)
  /**
   * Payouts not final yet (INIT: waiting to be signed; PENDING and PENDING_CONFIRMATION: sent), oldest
   * first, at most `limit`. Read through the status index (open orders are few).
   */
  openPayouts(limit: number): Promise<Order[]>;
  /** The attempts of several payouts, grouped by order, oldest first within each. */
  attemptsOfOrders(orderRefs: string[]): Promise<Map<string, PayoutAttempt[]>>;
}
