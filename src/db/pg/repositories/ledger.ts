import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import {
  applyMovement,
  type Balance,
  collectionCredit,
  type Movement,
  payoutDebit,
  payoutRelease,
  ZERO_BALANCE,
} from '../../../domain/ledger.ts';
import type { Order } from '../../../domain/order.ts';
import { newId } from '../../../lib/ids.ts';
import { type BalanceKey, type MerchantBalance, toBalance } from '../../repositories/ledger.ts';
import { inTransaction, type PgDb, type PgExecutor, pgTransaction } from '../client.ts';
import { ledgerEntries } from '../schema/ledger-entries.ts';
import { merchantBalances } from '../schema/merchant-balances.ts';
import { lockMerchantMoney } from './money-locks.ts';

export type { BalanceKey, LedgerEntry, MerchantBalance } from '../../repositories/ledger.ts';

const keyIs = (key: Omit<BalanceKey, 'decimals'>) =>
  and(
    eq(merchantBalances.merchantId, key.merchantId),
    eq(merchantBalances.chain, key.chain),
    eq(merchantBalances.symbol, key.symbol),
  );

/**
 * A balance as it stands (zero when the merchant never had one), its row locked FOR UPDATE until the
 * caller's transaction ends: a check made on it still holds when the caller writes.
 */
export async function readBalance(ex: PgExecutor, key: Omit<BalanceKey, 'decimals'>): Promise<Balance> {
  const [row] = await ex
    .select({ available: merchantBalances.available, frozen: merchantBalances.frozen })
    .from(merchantBalances)
    .where(keyIs(key))
    .for('update');
  return row ? { available: BigInt(row.available), frozen: BigInt(row.frozen) } : ZERO_BALANCE;
}

/**
 * Appends one entry and moves the running balance with it, inside the caller's transaction. An
 * order moves money at most once per kind: a second attempt writes nothing and returns false.
 * Throws `ledger_negative` (rolling the caller back) when the balance would go below zero.
 */
// Kept correct by (a) atomic statements: the entry's unique (order_ref, kind) makes a second movement
// of an order a no-op (a concurrent one waits for the first to commit, then inserts nothing), and the
// balance moves in one INSERT … ON CONFLICT DO UPDATE that adds to the row as it stands (locking it),
// so concurrent movements of one balance add up instead of overwriting each other.
export function postEntry(
  ex: PgExecutor,
  entry: BalanceKey & { movement: Movement; orderRef: string | null; reason: string | null },
  now: number,
): Promise<boolean> {
  return inTransaction(ex, async (tx) => {
    const { movement } = entry;
    const inserted = await tx
      .insert(ledgerEntries)
      .values({
        id: newId('led'),
        merchantId: entry.merchantId,
        chain: entry.chain,
        symbol: entry.symbol,
        decimals: entry.decimals,
        kind: movement.kind,
        availableDelta: movement.available.toString(),
        frozenDelta: movement.frozen.toString(),
        orderRef: entry.orderRef,
        reason: entry.reason,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: ledgerEntries.id });
    if (inserted.length === 0) return false;
    const available = movement.available.toString();
    const frozen = movement.frozen.toString();
    const [after] = await tx
      .insert(merchantBalances)
      .values({ ...balanceKey(entry), available, frozen, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [merchantBalances.merchantId, merchantBalances.chain, merchantBalances.symbol],
        set: {
          // base units as exact numerics: no float ever sees the money
          available: sql`(${merchantBalances.available}::numeric + ${available}::numeric)::text`,
          frozen: sql`(${merchantBalances.frozen}::numeric + ${frozen}::numeric)::text`,
          updatedAt: now,
        },
      })
      .returning({ available: merchantBalances.available, frozen: merchantBalances.frozen });
    if (!after) throw new Error('the balance row was not written');
    // the same refusal as SQLite's (applyMovement on the balance before), rolling the caller back
    const before = {
      available: BigInt(after.available) - movement.available,
      frozen: BigInt(after.frozen) - movement.frozen,
    };
    applyMovement(before, movement);
    return true;
  });
}

const balanceKey = (k: BalanceKey): BalanceKey => ({
  merchantId: k.merchantId,
  chain: k.chain,
  symbol: k.symbol,
  decimals: k.decimals,
});

/**
 * Moves a merchant's money for an order that just reached a final state, inside the transaction of
 * that transition (orders.ts calls it for every one, so no path can skip it): a collection's
 * SUCCESS credits what arrived minus the fee; a payout's SUCCESS debits what its acceptance froze,
 * FAILED or EXPIRED releases it. A payout accepted without freezing (requireMerchantBalance off)
 * moves nothing.
 */
// Kept correct by (a): the transition's guarded UPDATE lets one transaction move the order to its
// final state, and postEntry's unique (order_ref, kind) credits or debits an order once whatever calls.
export async function settleOrderMoney(ex: PgExecutor, order: Order, now: number): Promise<void> {
  const key = {
    merchantId: order.merchantId,
    chain: order.chain,
    symbol: order.symbol,
    decimals: order.decimals,
  };
  if (order.type === 'COLLECTION') {
    if (order.status !== 'SUCCESS') return;
    const credit = collectionCredit(order);
    if (credit) await postEntry(ex, { ...key, movement: credit, orderRef: order.id, reason: null }, now);
    return;
  }
  const [frozen] = await ex
    .select({ frozen: ledgerEntries.frozenDelta })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderRef, order.id), eq(ledgerEntries.kind, 'payout_freeze')));
  if (!frozen) return;
  const amount = BigInt(frozen.frozen);
  if (order.status === 'SUCCESS') {
    await postEntry(ex, { ...key, movement: payoutDebit(amount), orderRef: order.id, reason: null }, now);
  } else if (order.status === 'FAILED' || order.status === 'EXPIRED') {
    await postEntry(
      ex,
      { ...key, movement: payoutRelease(amount), orderRef: order.id, reason: order.reason },
      now,
    );
  }
}

/**
 * Records an operator's top-up or correction of a merchant's available balance, with the reason the
 * entry keeps. Throws `ledger_negative` when a negative adjustment exceeds what is available
 * (frozen money belongs to payouts in flight and cannot be adjusted away).
 */
// Kept correct by (b): the merchant's money lock (money-locks.ts) is held from reading the newest
// adjustment to writing the new one, so of two forms submitted at once exactly one finds its
// expectation true. An adjustment is written at least 1 ms after the merchant's newest one (`now`,
// unless a clock or a burst in the same millisecond says otherwise), so "newest" is never a tie:
// PostgreSQL has no insertion order (SQLite's rowid) to break one.
export async function adjustBalance(
  db: PgDb,
  input: BalanceKey & {
    amountBase: bigint;
    reason: string;
    now: number;
    /**
     * When given, the merchant's newest adjustment must still be this one (null: none yet), or
     * nothing is written (`state_conflict`): a form submitted twice adjusts once.
     */
    expectLastAdjustment?: string | null;
  },
): Promise<MerchantBalance> {
  return pgTransaction(db, async (tx) => {
    await lockMerchantMoney(tx, input.merchantId);
    const newest = await newestAdjustment(tx, input.merchantId);
    if (input.expectLastAdjustment !== undefined && (newest?.id ?? null) !== input.expectLastAdjustment) {
      throw new AppError(
        'state_conflict',
        `Another adjustment of ${input.merchantId} was recorded after this form was shown (sent twice, or by another operator); check the ledger before adjusting again.`,
      );
    }
    const at = Math.max(input.now, (newest?.createdAt ?? -1) + 1);
    await postEntry(
      tx,
      {
        ...balanceKey(input),
        movement: { kind: 'adjustment', available: input.amountBase, frozen: 0n },
        orderRef: null,
        reason: input.reason,
      },
      at,
    );
    const [row] = await tx.select().from(merchantBalances).where(keyIs(input));
    if (!row) throw new Error('the balance row was not written');
    return toBalance(row);
  });
}

async function newestAdjustment(
  ex: PgExecutor,
  merchantId: string,
): Promise<{ id: string; createdAt: number } | null> {
  const [row] = await ex
    .select({ id: ledgerEntries.id, createdAt: ledgerEntries.createdAt })
    .from(ledgerEntries)
    .where(
      and(
        isNull(ledgerEntries.orderRef),
        eq(ledgerEntries.kind, 'adjustment'),
        eq(ledgerEntries.merchantId, merchantId),
      ),
    )
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(1);
  return row ?? null;
}

/** The id of a merchant's newest operator adjustment, or null when there is none. */
export async function lastAdjustmentId(ex: PgExecutor, merchantId: string): Promise<string | null> {
  return (await newestAdjustment(ex, merchantId))?.id ?? null;
}

/** Balances, optionally of one merchant, chain or symbol, ordered by merchant, chain and symbol. */
export async function listBalances(
  ex: PgExecutor,
  filter: { merchantId?: string; chain?: string; symbol?: string } = {},
): Promise<MerchantBalance[]> {
  const conditions = [
    filter.merchantId === undefined ? undefined : eq(merchantBalances.merchantId, filter.merchantId),
    filter.chain === undefined ? undefined : eq(merchantBalances.chain, filter.chain),
    filter.symbol === undefined ? undefined : eq(merchantBalances.symbol, filter.symbol),
  ].filter((c) => c !== undefined);
  const rows = await ex
    .select()
    .from(merchantBalances)
    .where(and(...conditions))
    .orderBy(asc(merchantBalances.merchantId), asc(merchantBalances.chain), asc(merchantBalances.symbol));
  return rows.map(toBalance);
}
