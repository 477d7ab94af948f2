import { asc, eq } from 'drizzle-orm';
import type { CompatMode } from '../../domain/compat-mode.ts';
import type { MerchantKind } from '../../domain/order.ts';
import type { Db } from '../client.ts';
import { merchants } from '../schema/merchants.ts';

export interface MerchantRecord {
  id: string;
  kind: MerchantKind;
  name: string | null;
  tokenSealed: string;
  webhookSecretSealed: string;
  callbackUrl: string | null;
  compat: CompatMode;
  status: 'active' | 'disabled';
  createdAt: number;
  updatedAt: number;
}

/** Stores a new merchant (secrets already sealed). */
export function insertMerchant(db: Db, record: MerchantRecord): void {
  db.insert(merchants).values(record).run();
}

/** Every merchant, oldest first. */
export function listMerchants(db: Db): MerchantRecord[] {
  return db.select().from(merchants).orderBy(asc(merchants.createdAt)).all();
}

/** Active merchants, for signature lookup when no X-Merchant-Id is sent. */
export function listActiveMerchants(db: Db): MerchantRecord[] {
  return db
    .select()
    .from(merchants)
    .where(eq(merchants.status, 'active'))
    .orderBy(asc(merchants.createdAt))
    .all();
}

/** One merchant by id. */
export function findMerchant(db: Db, id: string): MerchantRecord | null {
  return db.select().from(merchants).where(eq(merchants.id, id)).get() ?? null;
}

/** Changes a merchant's mutable fields; returns false when the merchant does not exist. */
export function updateMerchant(
  db: Db,
  id: string,
  patch: Partial<
    Pick<MerchantRecord, 'tokenSealed' | 'callbackUrl' | 'status' | 'webhookSecretSealed' | 'compat'>
  >,
  now: number,
): boolean {
  return (
    db
      .update(merchants)
      .set({ ...patch, updatedAt: now })
      .where(eq(merchants.id, id))
      .run().changes > 0
  );
}
