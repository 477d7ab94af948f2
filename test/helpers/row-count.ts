import { pgOf } from '../../src/db/pg-store.ts';
import type { Harness } from './harness.ts';
import { testEngine } from './test-engine.ts';

/**
 * How many rows `table` of the harness's database holds, on either engine: for tests that check a
 * refused request wrote nothing, from outside the Store (which has no such count). `table` is a
 * constant of the test, never input.
 */
export async function rowCount(h: Harness, table: string): Promise<number> {
  if (testEngine() === 'postgres') {
    const result = await pgOf(h.rt.db).$client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table}`,
    );
    return Number(result.rows[0]?.n);
  }
  return (h.db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** The orders and spent request nonces of the harness's database. */
export async function ordersAndNonces(h: Harness): Promise<{ orders: number; nonces: number }> {
  return { orders: await rowCount(h, 'orders'), nonces: await rowCount(h, 'request_nonces') };
}
