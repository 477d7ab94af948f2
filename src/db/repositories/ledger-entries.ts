import { and, asc, desc, eq, lt, or, sql } from 'drizzle-orm';
import { type Balance, ZERO_BALANCE } from '../../domain/ledger.ts';
import type { Db } from '../client.ts';
import { ledgerEntries } from '../schema/ledger-entries.ts';
import { orders } from '../schema/orders.ts';
import type { LedgerEntry } from './ledger.ts';

// The merchant ledger's entries as they are read back: a merchant's, one order's, page by page, and
// summed to check the running balances (the writes and the balances are in ledger.ts).

type EntryRow = typeof ledgerEntries.$inferSelect;

/** A stored ledger entry row in domain terms (pure: the PostgreSQL repository maps its rows with it too). */
export const toEntry = (r: EntryRow): LedgerEntry => ({
  id: r.id,
  merchantId: r.merchantId,
  chain: r.chain,
  symbol: r.symbol,
  decimals: r.decimals,
  kind: r.kind,
  availableDelta: BigInt(r.availableDelta),
  frozenDelta: BigInt(r.frozenDelta),
  orderRef: r.orderRef,
  reason: r.reason,
  createdAt: r.createdAt,
});

/**
 * A merchant's ledger entries in the order they were written (oldest first), at most `limit`, each
 * with the merchant's orderId of the order that caused it (null for adjustments).
 */
export async function listLedgerEntries(
  db: Db,
  filter: { merchantId: string; limit?: number },
): Promise<(LedgerEntry & { orderId: string | null })[]> {
  return db
    .select({ entry: ledgerEntries, orderId: orders.orderId })
    .from(ledgerEntries)
    .leftJoin(orders, eq(orders.id, ledgerEntries.orderRef))
    .where(eq(ledgerEntries.merchantId, filter.merchantId))
    .orderBy(asc(ledgerEntries.createdAt), asc(sql`${ledgerEntries}.rowid`))
    .limit(filter.limit ?? 10_000)
    .all()
    .map((r) => ({ ...toEntry(r.entry), orderId: r.orderId }));
}

/**
 * One page of a merchant's ledger, newest first: at most `limit` entries written before the
 * `before` entry (by time, then id), each with the merchant's orderId of the order that caused it.
 * Read through the (merchant, time) index, so a page costs the same however long the ledger is.
 */
export async function pageLedgerEntries(
  db: Db,
  filter: { merchantId: string; before: { createdAt: number; id: string } | null; limit: number },
): Promise<(LedgerEntry & { orderId: string | null })[]> {
  const { before } = filter;
  return db
    .select({ entry: ledgerEntries, orderId: orders.orderId })
    .from(ledgerEntries)
    .leftJoin(orders, eq(orders.id, ledgerEntries.orderRef))
    .where(
      and(
        eq(ledgerEntries.merchantId, filter.merchantId),
        before === null
          ? undefined
          : or(
              lt(ledgerEntries.createdAt, before.createdAt),
              and(eq(ledgerEntries.createdAt, before.createdAt), lt(ledgerEntries.id, before.id)),
            ),
      ),
    )
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(filter.limit)
    .all()
    .map((r) => ({ ...toEntry(r.entry), orderId: r.orderId }));
}

/** The ledger entries one order caused (its credit, or its freeze and then debit or release), oldest first. */
export async function ledgerEntriesOfOrder(db: Db, orderRef: string): Promise<LedgerEntry[]> {
  return db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.orderRef, orderRef))
    .orderBy(asc(ledgerEntries.createdAt), asc(sql`${ledgerEntries}.rowid`))
    .all()
    .map(toEntry);
}

/**
 * Every balance recomputed from the entries alone (merchant, chain, symbol → sums), to check the
 * running balances against: they must always be equal.
 */
export async function sumLedgerEntries(db: Db): Promise<Map<string, Balance>> {
  const out = new Map<string, Balance>();
  for (const r of db.select().from(ledgerEntries).all()) {
    const key = `${r.merchantId}/${r.chain}/${r.symbol}`;
    const b = out.get(key) ?? ZERO_BALANCE;
    out.set(key, {
      available: b.available + BigInt(r.availableDelta),
      frozen: b.frozen + BigInt(r.frozenDelta),
    });
  }
  return out;
}
