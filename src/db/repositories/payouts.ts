import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Order } from '../../domain/order.ts';
import { type Db, writeTransaction } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { payoutAttempts } from '../schema/payout-attempts.ts';
import { rowToOrder } from './order-rows.ts';
import { applyOrderTransitions, type OrderTransition } from './orders.ts';

/**
 * Sum and count of a token's payouts whose money has not left the hot wallet yet on a chain: INIT
 * (queued) and PENDING (broadcast, not mined). Mined payouts already show in the on-chain balance.
 */
export function queuedPayoutTotals(
  db: Db,
  chain: string,
  symbol: string,
): { amountBase: bigint; count: number } {
  const rows = db
    .select({ amountBase: orders.amountBase })
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.symbol, symbol),
        eq(orders.type, 'PAYOUT'),
        inArray(orders.status, ['INIT', 'PENDING']),
      ),
    )
    .all();
  let total = 0n;
  for (const r of rows) total += BigInt(r.amountBase);
  return { amountBase: total, count: rows.length };
}

export type AttemptStatus = 'signed' | 'broadcast' | 'mined' | 'final' | 'failed' | 'dropped';

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
  createdAt: number;
  updatedAt: number;
}

const LIVE: AttemptStatus[] = ['signed', 'broadcast', 'mined'];

/** Attempts of a chain that may still land (signed, broadcast or mined, not final). */
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
    .orderBy(asc(payoutAttempts.createdAt))
    .all();
}

/**
 * Payouts of a chain that need a (new) transaction: INIT ones, and PENDING ones whose every attempt
 * was proven dead. Oldest first.
 */
export function payoutsToSend(db: Db, chain: string, limit: number): Order[] {
  const rows = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.type, 'PAYOUT'),
        inArray(orders.status, ['INIT', 'PENDING']),
        notExists(
          db
            .select({ one: sql`1` })
            .from(payoutAttempts)
            .where(and(eq(payoutAttempts.orderRef, orders.id), inArray(payoutAttempts.status, LIVE))),
        ),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(limit)
    .all();
  return rows.map(rowToOrder);
}

/** The highest nonce this database ever signed from an address on a chain (dropped ones included), or -1. */
export function highestNonce(db: Db, chain: string, from: string): number {
  const row = db
    .select({ n: sql<number | null>`max(${payoutAttempts.nonce})` })
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.chain, chain), eq(payoutAttempts.fromAddress, from)))
    .get();
  return row?.n ?? -1;
}

/**
 * Commits a payout to a signed transaction before anything is sent: stores the attempt and moves
 * the order to PENDING (or keeps it there with the new transaction) in one transaction, so neither
 * the expiry job nor a crash can separate "signed" from "committed to send". Throws state_conflict
 * if the order changed meanwhile (nothing is stored, nothing was sent).
 */
export function commitSignedPayout(
  db: Db,
  input: {
    attempt: Omit<PayoutAttempt, 'createdAt' | 'updatedAt' | 'blockNum' | 'error'>;
    transition: OrderTransition;
    now: number;
  },
): void {
  writeTransaction(db, () => {
    applyOrderTransitions(db, [input.transition], input.now);
    db.insert(payoutAttempts)
      .values({ ...input.attempt, blockNum: null, error: null, createdAt: input.now, updatedAt: input.now })
      .run();
  });
}

/** Records what the chain says about attempts and moves their payouts, atomically. */
export function recordPayoutProgress(
  db: Db,
  input: {
    attempts: { id: string; status: AttemptStatus; blockNum?: number | null; error?: string | null }[];
    transitions: OrderTransition[];
    now: number;
  },
): void {
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
  });
}
