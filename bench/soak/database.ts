import { sqliteOf } from '../../src/db/sqlite-store.ts';
import type { Deps } from '../../src/services/deps.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';

/** A row of Kassa's database as the soak's checks read it. */
export type Row = Record<string, unknown>;

/** Read access to Kassa's database for the drain and the checks: plain SQL, and an order by its id. */
export function soakDatabase(rt: Deps) {
  const db = sqliteOf(rt.db).$client;
  return {
    q: <T = Row>(sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as T[],
    orderRow: (m: MerchantCreated, orderId: string) =>
      db.prepare('SELECT * FROM orders WHERE merchant_id = ? AND order_id = ?').get(m.merchantId, orderId) as
        | Row
        | undefined,
  };
}

export type SoakDatabase = ReturnType<typeof soakDatabase>;
