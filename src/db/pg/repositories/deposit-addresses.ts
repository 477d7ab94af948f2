import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Family } from '../../../domain/chains.ts';
import { type PgDb, type PgExecutor, type PgTx, pgTransaction } from '../client.ts';
import { depositAddresses } from '../schema/deposit-addresses.ts';

/** Namespace of the transaction-scoped advisory locks on deriving a family's next index. */
const DERIVE_LOCK = 0x4b44; // 'KD'

/** How many derived addresses of a family wait in the pool. */
export async function freeDepositAddressCount(ex: PgExecutor, family: Family): Promise<number> {
  const rows = await ex
    .select({ n: count() })
    .from(depositAddresses)
    .where(and(eq(depositAddresses.family, family), isNull(depositAddresses.orderRef)));
  return rows[0]?.n ?? 0;
}

/**
 * Adds derived addresses to the pool, starting at the next unused index. `derive` runs inside the
 * write transaction so indexes cannot collide with a concurrent allocation.
 *
 * Kept correct by (b) a lock: the family's derivation lock (lockDerivation) is held from reading the
 * highest index to the commit, so two processes never derive the same index and leave no gap.
 */
export function addToDepositPool(
  db: PgDb,
  family: Family,
  howMany: number,
  derive: (family: Family, index: number) => string,
  now: number,
): Promise<number> {
  return pgTransaction(db, async (tx) => {
    await lockDerivation(tx, family);
    const start = await nextDepositIndex(tx, family);
    const rows = Array.from({ length: howMany }, (_, i) => ({
      family,
      idx: start + i,
      address: derive(family, start + i),
      createdAt: now,
    }));
    if (rows.length > 0) await tx.insert(depositAddresses).values(rows);
    return howMany;
  });
}

/** The next derivation index never used for a family (hold lockDerivation to use it). */
export async function nextDepositIndex(ex: PgExecutor, family: Family): Promise<number> {
  const rows = await ex
    // a raw int8 comes back as text through drizzle (its own type parsers): mapWith makes it a number
    .select({ max: sql<number | null>`max(${depositAddresses.idx})`.mapWith(Number) })
    .from(depositAddresses)
    .where(eq(depositAddresses.family, family));
  return (rows[0]?.max ?? -1) + 1;
}

/**
 * Takes the lowest free address of a family's pool for `orderRef`, inside the caller's transaction,
 * or null when none is free. A free row another transaction is taking is skipped, not waited for
 * (`FOR UPDATE SKIP LOCKED`), so concurrent orders take different addresses at once; a rolled-back
 * taker leaves its row in the pool.
 */
export async function takeFreeDepositAddress(
  tx: PgTx,
  family: Family,
  orderRef: string,
  now: number,
): Promise<string | null> {
  const result = await tx.execute<{ address: string }>(sql`
    WITH free AS (
      SELECT family, idx FROM deposit_addresses
      WHERE family = ${family} AND order_ref IS NULL
      ORDER BY idx LIMIT 1
      FOR UPDATE SKIP LOCKED)
    UPDATE deposit_addresses d SET order_ref = ${orderRef}, allocated_at = ${now}
    FROM free WHERE d.family = free.family AND d.idx = free.idx
    RETURNING d.address`);
  return result.rows[0]?.address ?? null;
}

/**
 * Derives the family's next index with `derive` and gives it to `orderRef` at once, inside the
 * caller's transaction (the pool had nothing free). Holds the family's derivation lock until the
 * caller commits.
 */
export async function deriveDepositAddress(
  tx: PgTx,
  family: Family,
  derive: (family: Family, index: number) => string,
  now: number,
  orderRef: string,
): Promise<string> {
  await lockDerivation(tx, family);
  const idx = await nextDepositIndex(tx, family);
  const address = derive(family, idx);
  await tx
    .insert(depositAddresses)
    .values({ family, idx, address, orderRef, createdAt: now, allocatedAt: now });
  return address;
}

/**
 * Waits for any other transaction deriving addresses of `family`, and keeps them waiting until this
 * one ends: the highest index read next is then final until the commit.
 */
async function lockDerivation(tx: PgTx, family: Family): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${DERIVE_LOCK}, hashtext(${family}))`);
}
