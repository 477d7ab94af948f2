import { asc, eq } from 'drizzle-orm';
import type { MerchantRecord } from '../../repositories/merchants.ts';
import type { PgExecutor } from '../client.ts';
import { merchants } from '../schema/merchants.ts';

// Merchants on PostgreSQL: the same functions as ../../repositories/merchants.ts. Every write is one
// statement on one row, so nothing here needs more than the statement's own atomicity.

/** Stores a new merchant (secrets already sealed). One INSERT: a second one of the same id fails on the key. */
export async function insertMerchant(ex: PgExecutor, record: MerchantRecord): Promise<void> {
  await ex.insert(merchants).values(record);
}

/** Every merchant, oldest first. */
export async function listMerchants(ex: PgExecutor): Promise<MerchantRecord[]> {
  return ex.select().from(merchants).orderBy(asc(merchants.createdAt), asc(merchants.id));
}

/** Active merchants, for signature lookup when no X-Merchant-Id is sent. */
export async function listActiveMerchants(ex: PgExecutor): Promise<MerchantRecord[]> {
  return ex
    .select()
    .from(merchants)
    .where(eq(merchants.status, 'active'))
    .orderBy(asc(merchants.createdAt), asc(merchants.id));
}

/** One merchant by id. */
export async function findMerchant(ex: PgExecutor, id: string): Promise<MerchantRecord | null> {
  const [row] = await ex.select().from(merchants).where(eq(merchants.id, id));
  return row ?? null;
}

/**
 * Changes a merchant's mutable fields; returns false when the merchant does not exist. One UPDATE
 * (a): the fields given replace what is there, whoever wrote last.
 */
export async function updateMerchant(
  ex: PgExecutor,
  id: string,
  patch: Partial<
    Pick<MerchantRecord, 'tokenSealed' | 'callbackUrl' | 'status' | 'webhookSecretSealed' | 'compat'>
  >,
  now: number,
): Promise<boolean> {
  const result = await ex
    .update(merchants)
    .set({ ...patch, updatedAt: now })
    .where(eq(merchants.id, id));
  return (result.rowCount ?? 0) > 0;
}
