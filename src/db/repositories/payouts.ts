import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import { type Balance, payoutFreeze } from '../../domain/ledger.ts';
import type { Order, OrderStatus } from '../../domain/order.ts';
import { transition } from '../../domain/order-state.ts';
import { newId } from '../../lib/ids.ts';
import { batchedWrite } from '../batched-write.ts';
import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { payoutHolds } from '../schema/payout-holds.ts';
import { postEntry, readBalance } from './ledger.ts';
import { rowToOrder } from './order-rows.ts';
import {
  applyOrderTransitions,
  findOrderById,
  findOrderByMerchantOrderId,
  insertOrder,
  type NewOrder,
  type OrderTransition,
  orderParamsKey,
} from './orders.ts';
import { type HoldKind, openHold, openHoldsOf, type PayoutHold, resolveHolds } from './payout-holds.ts';

export type AttemptStatus = 'signed' | 'broadcast' | 'mined' | 'final' | 'failed' | 'dropped' | 'replaced';

export interface PayoutAttempt {
  id: string;
  orderRef: string;
  chain: string;
  fromAddress: string;
  nonce: number | null;
  txHash: string;
  rawTx: string;
  status: AttemptStatus;
  blockNum: number | null;
  validUntil: number | null;
  error: string | null;
  /** The spend slot in words (nonce, TRON window, Sui inputs). */
  slot: string | null;
  /** The attempt this one re-prices (same nonce), or null for the first of its slot. */
  replacesAttempt: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An attempt about to be stored (the repository fills in times, block and error). */
export type NewAttempt = Omit<PayoutAttempt, 'createdAt' | 'updatedAt' | 'blockNum' | 'error'>;

const LIVE: AttemptStatus[] = ['signed', 'broadcast', 'mined'];

// --- accepting a payout ---------------------------------------------------------------------------

/**
 * What createPayout's checks are decided on, read inside the write transaction that inserts it; each
 * is read only when the check that needs it runs (a daily sum costs a scan of the day's payouts).
 */
export interface PayoutFacts {
  /** The merchant's balance in the payout's chain and token. */
  balance(): Balance;
  /**
   * The merchant's payouts of this symbol on any chain accepted in the last 24 hours, except failed
   * or expired ones, in the payout's decimals (rounded up where a chain has more).
   */
  paidToday(): bigint;
  /**
   * What the hot wallet has promised and a balance read at `balanceReadAt` may still show: payouts
   * not sent or not mined (INIT, PENDING), and those Kassa recorded as mined after that moment
   * (recorded earlier means mined earlier, so the balance read already shows them).
   */
  hotWalletCommitted(): { tokenBase: bigint; nativeBase: bigint; count: number };
}

const selectPaidToday = (db: Db) =>
  prepared(db, 'payouts.paidToday', () =>
    db.$client.prepare<
      { merchantId: string; symbol: string; since: number },
      { amount: string; decimals: number }
    >(
      `SELECT amount_base AS amount, decimals FROM orders
       WHERE merchant_id = @merchantId AND type = 'PAYOUT' AND created_at >= @since
         AND symbol = @symbol AND status NOT IN ('FAILED', 'EXPIRED')`,
    ),
  );

const selectCommitted = (db: Db) =>
  prepared(db, 'payouts.committed', () =>
    db.$client.prepare<{ chain: string; since: number }, { symbol: string; amount: string }>(
      `SELECT id, symbol, amount_base AS amount FROM orders
       WHERE chain = @chain AND type = 'PAYOUT' AND status IN ('INIT', 'PENDING')
       UNION
       SELECT o.id, o.symbol, o.amount_base AS amount FROM payout_attempts a JOIN orders o ON o.id = a.order_ref
       WHERE a.chain = @chain AND a.updated_at > @since AND a.status IN ('mined', 'final')
         AND o.status IN ('PENDING_CONFIRMATION', 'SUCCESS')`,
    ),
  );

/**
 * Accepts a payout in one write transaction (group-committed with the API's other writes): when
 * the merchant already used the orderId, nothing is written and the existing order comes back
 * (`created: false`). Otherwise the facts are read, `judge` decides (it throws to refuse: nothing is
 * written), and the order is inserted in INIT with `amount + fee` frozen on the merchant's ledger
 * (`freezeBase`, null when the ledger check is off) and an approval hold when it needs one. Because
 * the check and the insert share the transaction, concurrent requests see each other.
 */
export function acceptPayout(
  db: Db,
  input: {
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
  },
): Promise<{ order: Order; created: boolean; paramsKey: string }> {
  return batchedWrite(db, () => {
    const { order } = input;
    const existing = findOrderByMerchantOrderId(db, order.merchantId, order.orderId);
    if (existing)
      return { order: existing, created: false, paramsKey: orderParamsKey(db, existing.id) ?? '' };
    const key = { merchantId: order.merchantId, chain: order.chain, symbol: order.symbol };
    input.judge({
      balance: () => readBalance(db, key),
      paidToday() {
        // per symbol over every chain, in this payout's decimals (BSC's USDT has 18, the others 6)
        let sum = 0n;
        const since = input.dayStart;
        for (const r of selectPaidToday(db).all({ merchantId: key.merchantId, symbol: key.symbol, since }))
          sum += rescale(BigInt(r.amount), r.decimals, order.decimals);
        return sum;
      },
      hotWalletCommitted() {
        const committed = { tokenBase: 0n, nativeBase: 0n, count: 0 };
        for (const r of selectCommitted(db).all({ chain: order.chain, since: input.balanceReadAt })) {
          committed.count++;
          if (r.symbol === order.symbol) committed.tokenBase += BigInt(r.amount);
          if (r.symbol === input.nativeSymbol) committed.nativeBase += BigInt(r.amount);
        }
        return committed;
      },
    });
    const created = insertOrder(db, { ...order, id: newId('ord') }, input.now);
    if (input.freezeBase !== null) {
      postEntry(
        db,
        {
          ...key,
          decimals: order.decimals,
          movement: payoutFreeze(input.freezeBase),
          orderRef: created.id,
          reason: null,
        },
        input.now,
      );
    }
    if (input.approval !== null)
      openHold(db, { orderRef: created.id, kind: 'approval', reason: input.approval, now: input.now });
    return { order: created, created: true, paramsKey: order.paramsKey };
  });
}

/** Base units of one token in another's decimals, rounded up (a limit is never undercounted). */
function rescale(amount: bigint, from: number, to: number): bigint {
  if (from === to) return amount;
  if (from < to) return amount * 10n ** BigInt(to - from);
  const unit = 10n ** BigInt(from - to);
  return (amount + unit - 1n) / unit;
}

// --- the sender's and tracker's view --------------------------------------------------------------

/** Attempts of a chain that may still land (signed, broadcast or mined, not final), oldest first. */
export function liveAttempts(db: Db, chain: string): PayoutAttempt[] {
  return db
    .select()
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.chain, chain), inArray(payoutAttempts.status, LIVE)))
    .orderBy(asc(payoutAttempts.createdAt))
    .all();
}

/** Every attempt of one payout, oldest first. */
export function attemptsOfOrder(db: Db, orderRef: string): PayoutAttempt[] {
  return db
    .select()
    .from(payoutAttempts)
    .where(eq(payoutAttempts.orderRef, orderRef))
    .orderBy(asc(payoutAttempts.createdAt), asc(sql`rowid`))
    .all();
}

const selectToSend = (db: Db) =>
  prepared(db, 'payouts.toSend', () =>
    db.$client.prepare<{ chain: string; limit: number }, { id: string; retried: number }>(
      `SELECT o.id,
         EXISTS (SELECT 1 FROM payout_holds h WHERE h.order_ref = o.id AND h.resolution = 'retried'
                 AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.order_ref = o.id
                                 AND a.created_at > h.resolved_at)) AS retried
       FROM orders o
       WHERE o.chain = @chain AND o.type = 'PAYOUT' AND o.status IN ('INIT', 'PENDING')
         AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.order_ref = o.id
                         AND a.status IN ('signed', 'broadcast', 'mined'))
         AND NOT EXISTS (SELECT 1 FROM payout_holds h WHERE h.order_ref = o.id AND h.resolved_at IS NULL)
       ORDER BY o.created_at LIMIT @limit`,
    ),
  );

/**
 * Payouts of a chain that need a transaction in a new spend slot: INIT ones, and PENDING ones whose
 * every attempt was proven unable to land (or given up by the operator). Payouts on hold (awaiting
 * approval, or stuck until the operator decides) are left alone. Oldest first; `retriedByOperator`
 * marks those the operator told to send again (`kassa payouts retry`) that have not been signed
 * since: the operator's decision stands even past the payout's expiry.
 */
export async function payoutsToSend(
  db: Db,
  chain: string,
  limit: number,
): Promise<(Order & { retriedByOperator: boolean })[]> {
  const picked = selectToSend(db).all({ chain, limit });
  if (picked.length === 0) return [];
  const retried = new Set(picked.filter((r) => r.retried === 1).map((r) => r.id));
  const rows = db
    .select()
    .from(orders)
    .where(
      inArray(
        orders.id,
        picked.map((r) => r.id),
      ),
    )
    .all()
    .map((r) => ({ ...rowToOrder(r), retriedByOperator: retried.has(r.id) }));
  return rows.sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * Transactions Kassa recorded from a wallet for other payouts that may share a payout's spend slot:
 * on EVM those at the same nonce, elsewhere the most recent ones (the adapter checks which share
 * input objects). What `judgeSlot` needs to tell "used by us" from "used by someone else".
 */
export async function recordedSpends(
  db: Db,
  input: { chain: string; from: string; exceptOrder: string; nonce: number | null; limit?: number },
): Promise<PayoutAttempt[]> {
  return db
    .select()
    .from(payoutAttempts)
    .where(
      and(
        eq(payoutAttempts.chain, input.chain),
        eq(payoutAttempts.fromAddress, input.from),
        sql`${payoutAttempts.orderRef} <> ${input.exceptOrder}`,
        input.nonce === null ? undefined : eq(payoutAttempts.nonce, input.nonce),
      ),
    )
    .orderBy(desc(payoutAttempts.createdAt))
    .limit(input.limit ?? 200)
    .all();
}

/**
 * Commits a payout to a signed transaction before anything is sent: stores the attempt and moves
 * the order to PENDING (or keeps it there with the new transaction) in one transaction, so neither
 * the expiry job nor a crash can separate "signed" from "committed to send". A replacement must use
 * the slot of the attempt it replaces (same nonce, same payout). Throws state_conflict if the order
 * changed meanwhile (nothing is stored, nothing was sent).
 */
export async function commitSignedPayout(
  db: Db,
  input: { attempt: NewAttempt; transition: OrderTransition; now: number },
): Promise<void> {
  writeTransaction(db, () => {
    const { attempt } = input;
    if (attempt.replacesAttempt !== null) {
      const replaced = db
        .select()
        .from(payoutAttempts)
        .where(eq(payoutAttempts.id, attempt.replacesAttempt))
        .get();
      if (!replaced || replaced.orderRef !== attempt.orderRef || replaced.nonce !== attempt.nonce)
        throw new AppError('state_conflict', 'A replacement must reuse the slot of the payout it replaces.');
    }
    applyOrderTransitions(db, [input.transition], input.now);
    db.insert(payoutAttempts)
      .values({ ...attempt, blockNum: null, error: null, createdAt: input.now, updatedAt: input.now })
      .run();
  });
}

export interface AttemptUpdate {
  id: string;
  status: AttemptStatus;
  blockNum?: number | null;
  error?: string | null;
}

/**
 * Records what the chain says about attempts, moves their payouts and closes stuck holds whose
 * transaction showed up after all, atomically.
 */
export async function recordPayoutProgress(
  db: Db,
  input: { attempts: AttemptUpdate[]; transitions: OrderTransition[]; landed?: string[]; now: number },
): Promise<void> {
  writeTransaction(db, () => {
    for (const a of input.attempts) {
      db.update(payoutAttempts)
        .set({
          status: a.status,
          ...(a.blockNum !== undefined ? { blockNum: a.blockNum } : {}),
          ...(a.error !== undefined ? { error: a.error } : {}),
          updatedAt: input.now,
        })
        .where(eq(payoutAttempts.id, a.id))
        .run();
    }
    applyOrderTransitions(db, input.transitions, input.now);
    for (const orderRef of input.landed ?? [])
      resolveHolds(db, { orderRef, kind: 'stuck', resolution: 'landed', now: input.now });
  });
}

/**
 * Holds a payout whose spend slot was used by something Kassa cannot identify: it stays PENDING and
 * is never given a new slot until the operator retries or fails it. Returns whether the hold is new.
 */
export async function holdPayout(
  db: Db,
  input: { orderRef: string; reason: string; now: number },
): Promise<boolean> {
  return writeTransaction(db, () => openHold(db, { ...input, kind: 'stuck' }));
}

/** The open holds of some payouts, by order. */
export async function holdsOf(db: Db, orderRefs: string[]): Promise<Map<string, PayoutHold[]>> {
  return openHoldsOf(db, orderRefs);
}

// --- the operator's decisions ---------------------------------------------------------------------

function requireOpenHold(db: Db, order: Order, kind: HoldKind, verb: string): void {
  const open = openHoldsOf(db, [order.id]).get(order.id) ?? [];
  if (!open.some((h) => h.kind === kind)) {
    const what = kind === 'approval' ? 'is not waiting for approval' : 'is not held';
    throw new AppError(
      'state_conflict',
      `Payout ${order.orderId} ${what} (status ${order.status}); nothing to ${verb}.`,
    );
  }
}

function current(db: Db, id: string): Order {
  const order = findOrderById(db, id);
  if (!order) throw new AppError('order_not_found', `No payout ${id}.`);
  return order;
}

/** Approves a payout waiting for approval: the sender signs it on its next pass. */
export async function approvePayout(db: Db, input: { orderRef: string; now: number }): Promise<Order> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'approval', 'approve');
    resolveHolds(db, { orderRef: order.id, kind: 'approval', resolution: 'approved', now: input.now });
    const [updated] = applyOrderTransitions(
      db,
      [{ order, patch: { status: order.status, reason: null } }],
      input.now,
    );
    return updated as Order;
  });
}

/** Rejects a payout waiting for approval: FAILED with the operator's reason (webhook, frozen balance released). */
export async function rejectPayout(
  db: Db,
  input: { orderRef: string; reason: string; now: number },
): Promise<Order> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'approval', 'reject');
    resolveHolds(db, {
      orderRef: order.id,
      kind: 'approval',
      resolution: 'rejected',
      note: input.reason,
      now: input.now,
    });
    const [updated] = applyOrderTransitions(
      db,
      [{ order, patch: { status: transition('PAYOUT', order.status, 'failed'), reason: input.reason } }],
      input.now,
    );
    return updated as Order;
  });
}

function giveUpAttempts(db: Db, orderRef: string, error: string, now: number): number {
  return db
    .update(payoutAttempts)
    .set({ status: 'dropped', error, updatedAt: now })
    .where(and(eq(payoutAttempts.orderRef, orderRef), inArray(payoutAttempts.status, LIVE)))
    .run().changes;
}

/**
 * The operator checked the chain and found that a held payout's transaction never landed: its
 * attempts are given up and the sender signs it again in a new slot.
 */
export async function retryHeldPayout(
  db: Db,
  input: { orderRef: string; now: number },
): Promise<{ order: Order; givenUp: number }> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'stuck', 'retry');
    resolveHolds(db, { orderRef: order.id, kind: 'stuck', resolution: 'retried', now: input.now });
    const givenUp = giveUpAttempts(db, order.id, 'given up by the operator (kassa payouts retry)', input.now);
    return { order, givenUp };
  });
}

/**
 * The operator ends a held payout: FAILED with the reason (webhook, frozen balance released); its
 * attempts are no longer followed.
 */
export async function failHeldPayout(
  db: Db,
  input: { orderRef: string; reason: string; now: number },
): Promise<Order> {
  return writeTransaction(db, () => {
    const order = current(db, input.orderRef);
    requireOpenHold(db, order, 'stuck', 'fail');
    resolveHolds(db, {
      orderRef: order.id,
      kind: 'stuck',
      resolution: 'failed',
      note: input.reason,
      now: input.now,
    });
    giveUpAttempts(db, order.id, `given up by the operator: ${input.reason}`, input.now);
    const [updated] = applyOrderTransitions(
      db,
      [{ order, patch: { status: transition('PAYOUT', order.status, 'failed'), reason: input.reason } }],
      input.now,
    );
    return updated as Order;
  });
}

// --- listing --------------------------------------------------------------------------------------

/** A payout with what an operator needs to judge it. */
export interface PayoutListing {
  order: Order;
  holds: PayoutHold[];
  attempts: PayoutAttempt[];
}

/**
 * Payouts, newest first: of one merchant, in one status, only those held as stuck or only those
 * awaiting approval, at most `limit`.
 */
export async function listPayouts(
  db: Db,
  filter: {
    merchantId?: string;
    status?: OrderStatus;
    hold?: HoldKind;
    orderId?: string;
    limit?: number;
  } = {},
): Promise<PayoutListing[]> {
  const held =
    filter.hold === undefined
      ? null
      : db
          .select({ orderRef: payoutHolds.orderRef })
          .from(payoutHolds)
          .where(and(eq(payoutHolds.kind, filter.hold), sql`${payoutHolds.resolvedAt} IS NULL`))
          .all()
          .map((r) => r.orderRef);
  if (held !== null && held.length === 0) return [];
  const rows = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.type, 'PAYOUT'),
        filter.merchantId === undefined ? undefined : eq(orders.merchantId, filter.merchantId),
        filter.status === undefined ? undefined : eq(orders.status, filter.status),
        filter.orderId === undefined ? undefined : eq(orders.orderId, filter.orderId),
        held === null ? undefined : inArray(orders.id, held),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(filter.limit ?? 500)
    .all()
    .map(rowToOrder);
  const holds = openHoldsOf(
    db,
    rows.map((o) => o.id),
  );
  const attempts = new Map<string, PayoutAttempt[]>();
  if (rows.length > 0) {
    for (const a of db
      .select()
      .from(payoutAttempts)
      .where(
        inArray(
          payoutAttempts.orderRef,
          rows.map((o) => o.id),
        ),
      )
      .orderBy(asc(payoutAttempts.createdAt))
      .all())
      attempts.set(a.orderRef, [...(attempts.get(a.orderRef) ?? []), a]);
  }
  return rows.map((order) => ({
    order,
    holds: holds.get(order.id) ?? [],
    attempts: attempts.get(order.id) ?? [],
  }));
}

/** Payouts with an open hold, per chain and kind (for /metrics). */
export async function heldPayoutCounts(db: Db): Promise<{ chain: string; kind: HoldKind; n: number }[]> {
  return db
    .select({ chain: orders.chain, kind: payoutHolds.kind, n: sql<number>`count(*)` })
    .from(payoutHolds)
    .innerJoin(orders, eq(orders.id, payoutHolds.orderRef))
    .where(sql`${payoutHolds.resolvedAt} IS NULL`)
    .groupBy(orders.chain, payoutHolds.kind)
    .all();
}
