import { and, asc, desc, eq, lt, or, sql } from 'drizzle-orm';
import { type Balance, ZERO_BALANCE } from '../../../domain/ledger.ts';
import type { LedgerEntry } from '../../repositories/ledger.ts';
import { toEntry } from '../../repositories/ledger-entries.ts';
import type { PgExecutor } from '../client.ts';
import { ledgerEntries } from '../schema/ledger-entries.ts';
import { orders } from '../schema/orders.ts';

// The merchant ledger's entries as they are read back: a merchant's, one order's, page by page, and
// summed to check the running balances (the writes and the balances are in ledger.ts). PostgreSQL
// has no insertion order (SQLite's rowid): entries written in the same millisecond are ordered by id
// here, and one order's by what must come first (its freeze before its debit or release).

/**
 * A merchant's ledger entries in the order they were written (oldest first), at most `limit`, each
 * with the merchant's orderId of the order that caused it (null for adjustments).
 */
export async function listLedgerEntries(
  ex: PgExecutor,
  filter: { merchantId: string; limit?: number },
): Promise<(LedgerEntry & { orderId: string | null })[]> {
  const rows = await ex
    .select({ entry: ledgerEntries, orderId: orders.orderId })
    .from(ledgerEntries)
    .leftJoin(orders, eq(orders.id, ledgerEntries.orderRef))
    .where(eq(ledgerEntries.merchantId, filter.merchantId))
    .orderBy(asc(ledgerEntries.createdAt), KIND_RANK, asc(ledgerEntries.id))
    .limit(filter.limit ?? 10_000);
  return rows.map((r) => ({ ...toEntry(r.entry), orderId: r.orderId }));
}

/**
 * One page of a merchant's ledger, newest first: at most `limit` entries written before the
 * `before` entry (by time, then id), each with the merchant's orderId of the order that caused it.
 * Read through the (merchant, time) index, so a page costs the same however long the ledger is.
 */
export async function pageLedgerEntries(
  ex: PgExecutor,
  filter: { merchantId: string; before: { createdAt: number; id: string } | null; limit: number },
): Promise<(LedgerEntry & { orderId: string | null })[]> {
  const { before } = filter;
  const rows = await ex
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
    .limit(filter.limit);
  return rows.map((r) => ({ ...toEntry(r.entry), orderId: r.orderId }));
}

/** Within one millisecond, an order's freeze comes before its debit or release. */
const KIND_RANK = sql`CASE ${ledgerEntries.kind} WHEN 'payout_freeze' THEN 0 ELSE 1 END`;

/** The ledger entries one order caused (its credit, or its freeze and then debit or release), oldest first. */
export async function ledgerEntriesOfOrder(ex: PgExecutor, orderRef: string): Promise<LedgerEntry[]> {
  const rows = await ex
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.orderRef, orderRef))
    .orderBy(asc(ledgerEntries.createdAt), KIND_RANK, asc(ledgerEntries.id));
  return rows.map(toEntry);
}

/**
 * Every balance recomputed from the entries alone (merchant, chain, symbol → sums), to check the
 * running balances against: they must always be equal.
 */
export async function sumLedgerEntries(ex: PgExecutor): Promise<Map<string, Balance>> {
  // summed here from every entry, not by the numeric arithmetic that keeps the running balances:
  // the check stays independent of what it checks
  const out = new Map<string, Balance>();
  for (const r of await ex.select().from(ledgerEntries)) {
    const key = `${r.merchantId}/${r.chain}/${r.symbol}`;
    const b = out.get(key) ?? ZERO_BALANCE;
    out.set(key, {
      available: b.available + BigInt(r.availableDelta),
      frozen: b.frozen + BigInt(r.frozenDelta),
    });
  }
  return out;
}
