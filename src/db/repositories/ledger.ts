import { and, asc, eq } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import {
  applyMovement,
  type Balance,
  collectionCredit,
  type LedgerKind,
  type Movement,
  payoutDebit,
  payoutRelease,
  ZERO_BALANCE,
} from '../../domain/ledger.ts';
import type { Order } from '../../domain/order.ts';
import { newId } from '../../lib/ids.ts';
import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';
import { merchantBalances } from '../schema/merchant-balances.ts';

/** Whose balance: a merchant's money in one token on one chain. */
export interface BalanceKey {
  merchantId: string;
  chain: string;
  symbol: string;
  decimals: number;
}

/** A stored balance (the running sum of its entries). */
export interface MerchantBalance extends BalanceKey, Balance {
  createdAt: number;
  updatedAt: number;
}

/** A stored ledger entry. */
export interface LedgerEntry extends BalanceKey {
  id: string;
  kind: LedgerKind;
  availableDelta: bigint;
  frozenDelta: bigint;
  orderRef: string | null;
  reason: string | null;
  createdAt: number;
}

type BalanceRow = typeof merchantBalances.$inferSelect;

/** A stored balance row in domain terms (pure: the PostgreSQL repository maps its rows with it too). */
export const toBalance = (r: BalanceRow): MerchantBalance => ({
  merchantId: r.merchantId,
  chain: r.chain,
  symbol: r.symbol,
  decimals: r.decimals,
  available: BigInt(r.available),
  frozen: BigInt(r.frozen),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const selectBalance = (db: Db) =>
  prepared(db, 'ledger.balance', () =>
    db.$client.prepare<BalanceKey, { available: string; frozen: string }>(
      'SELECT available, frozen FROM merchant_balances WHERE merchant_id = @merchantId AND chain = @chain AND symbol = @symbol',
    ),
  );

const insertEntry = (db: Db) =>
  prepared(db, 'ledger.insertEntry', () =>
    db.$client.prepare(
      `INSERT INTO ledger_entries (id, merchant_id, chain, symbol, decimals, kind, available_delta, frozen_delta,
         order_ref, reason, created_at)
       VALUES (@id, @merchantId, @chain, @symbol, @decimals, @kind, @availableDelta, @frozenDelta, @orderRef,
         @reason, @createdAt)
       ON CONFLICT DO NOTHING`,
    ),
  );

const upsertBalance = (db: Db) =>
  prepared(db, 'ledger.upsertBalance', () =>
    db.$client.prepare(
      `INSERT INTO merchant_balances (merchant_id, chain, symbol, decimals, available, frozen, created_at, updated_at)
       VALUES (@merchantId, @chain, @symbol, @decimals, @available, @frozen, @now, @now)
       ON CONFLICT (merchant_id, chain, symbol) DO UPDATE SET available = excluded.available,
         frozen = excluded.frozen, updated_at = excluded.updated_at`,
    ),
  );

/** A balance as it stands inside the current transaction (zero when the merchant never had one). */
export function readBalance(db: Db, key: Omit<BalanceKey, 'decimals'>): Balance {
  const row = selectBalance(db).get(key as BalanceKey);
  return row ? { available: BigInt(row.available), frozen: BigInt(row.frozen) } : ZERO_BALANCE;
}

/**
 * Appends one entry and moves the running balance with it, inside the caller's transaction. An
 * order moves money at most once per kind: a second attempt writes nothing and returns false.
 * Throws `ledger_negative` (rolling the caller back) when the balance would go below zero.
 */
export function postEntry(
  db: Db,
  entry: BalanceKey & { movement: Movement; orderRef: string | null; reason: string | null },
  now: number,
): boolean {
  const inserted = insertEntry(db).run({
    id: newId('led'),
    merchantId: entry.merchantId,
    chain: entry.chain,
    symbol: entry.symbol,
    decimals: entry.decimals,
    kind: entry.movement.kind,
    availableDelta: entry.movement.available.toString(),
    frozenDelta: entry.movement.frozen.toString(),
    orderRef: entry.orderRef,
    reason: entry.reason,
    createdAt: now,
  });
  if (inserted.changes === 0) return false;
  const after = applyMovement(readBalance(db, entry), entry.movement);
  upsertBalance(db).run({
    merchantId: entry.merchantId,
    chain: entry.chain,
    symbol: entry.symbol,
    decimals: entry.decimals,
    available: after.available.toString(),
    frozen: after.frozen.toString(),
    now,
  });
  return true;
}

const selectFrozenOf = (db: Db) =>
  prepared(db, 'ledger.frozenOf', () =>
    db.$client.prepare<{ orderRef: string }, { frozen: string }>(
      "SELECT frozen_delta AS frozen FROM ledger_entries WHERE order_ref = @orderRef AND kind = 'payout_freeze'",
    ),
  );

/**
 * Moves a merchant's money for an order that just reached a final state, inside the transaction of
 * that transition (orders.ts calls it for every one, so no path can skip it): a collection's
 * SUCCESS credits what arrived minus the fee; a payout's SUCCESS debits what its acceptance froze,
 * FAILED or EXPIRED releases it. A payout accepted without freezing (requireMerchantBalance off)
 * moves nothing.
 */
export function settleOrderMoney(db: Db, order: Order, now: number): void {
  const key = {
    merchantId: order.merchantId,
    chain: order.chain,
    symbol: order.symbol,
    decimals: order.decimals,
  };
  if (order.type === 'COLLECTION') {
    if (order.status !== 'SUCCESS') return;
    const credit = collectionCredit(order);
    if (credit) postEntry(db, { ...key, movement: credit, orderRef: order.id, reason: null }, now);
    return;
  }
  const frozen = selectFrozenOf(db).get({ orderRef: order.id });
  if (!frozen) return;
  const amount = BigInt(frozen.frozen);
  if (order.status === 'SUCCESS') {
    postEntry(db, { ...key, movement: payoutDebit(amount), orderRef: order.id, reason: null }, now);
  } else if (order.status === 'FAILED' || order.status === 'EXPIRED') {
    postEntry(db, { ...key, movement: payoutRelease(amount), orderRef: order.id, reason: order.reason }, now);
  }
}

/**
 * Records an operator's top-up or correction of a merchant's available balance, with the reason the
 * entry keeps. Throws `ledger_negative` when a negative adjustment exceeds what is available
 * (frozen money belongs to payouts in flight and cannot be adjusted away).
 */
export async function adjustBalance(
  db: Db,
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
  return writeTransaction(db, () => {
    if (
      input.expectLastAdjustment !== undefined &&
      newestAdjustment(db, input.merchantId) !== input.expectLastAdjustment
    ) {
      throw new AppError(
        'state_conflict',
        `Another adjustment of ${input.merchantId} was recorded after this form was shown (sent twice, or by another operator); check the ledger before adjusting again.`,
      );
    }
    postEntry(
      db,
      {
        ...input,
        movement: { kind: 'adjustment', available: input.amountBase, frozen: 0n },
        orderRef: null,
        reason: input.reason,
      },
      input.now,
    );
    const row = db
      .select()
      .from(merchantBalances)
      .where(
        and(
          eq(merchantBalances.merchantId, input.merchantId),
          eq(merchantBalances.chain, input.chain),
          eq(merchantBalances.symbol, input.symbol),
        ),
      )
      .get();
    if (!row) throw new Error('the balance row was not written');
    return toBalance(row);
  });
}

const selectNewestAdjustment = (db: Db) =>
  prepared(db, 'ledger.newestAdjustment', () =>
    db.$client.prepare<{ merchantId: string }, { id: string }>(
      // adjustments are few: read them through the (order_ref, kind) index, not the merchant's entries
      `SELECT id FROM ledger_entries INDEXED BY ledger_entries_order_kind
       WHERE order_ref IS NULL AND kind = 'adjustment' AND merchant_id = @merchantId
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    ),
  );

function newestAdjustment(db: Db, merchantId: string): string | null {
  return selectNewestAdjustment(db).get({ merchantId })?.id ?? null;
}

/** The id of a merchant's newest operator adjustment, or null when there is none. */
export async function lastAdjustmentId(db: Db, merchantId: string): Promise<string | null> {
  return newestAdjustment(db, merchantId);
}

/** Balances, optionally of one merchant, chain or symbol, ordered by merchant, chain and symbol. */
export async function listBalances(
  db: Db,
  filter: { merchantId?: string; chain?: string; symbol?: string } = {},
): Promise<MerchantBalance[]> {
  const conditions = [
    filter.merchantId === undefined ? undefined : eq(merchantBalances.merchantId, filter.merchantId),
    filter.chain === undefined ? undefined : eq(merchantBalances.chain, filter.chain),
    filter.symbol === undefined ? undefined : eq(merchantBalances.symbol, filter.symbol),
  ].filter((c) => c !== undefined);
  return db
    .select()
    .from(merchantBalances)
    .where(and(...conditions))
    .orderBy(asc(merchantBalances.merchantId), asc(merchantBalances.chain), asc(merchantBalances.symbol))
    .all()
    .map(toBalance);
}
