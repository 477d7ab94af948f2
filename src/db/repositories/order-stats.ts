import type { Db } from '../client.ts';

/** What the overview needs of one order to count it and add up its money. */
export interface OrderStatRow {
  createdAt: number;
  id: string;
  type: 'COLLECTION' | 'PAYOUT';
  chain: string;
  symbol: string;
  status: string;
  decimals: number;
  amountBase: string;
  actualAmountBase: string | null;
}

/**
 * Orders created at or after `since`, oldest first, `limit` at a time after `after` (creation time
 * and id of the last row of the previous slice). Read through the creation-time index, so each
 * slice costs about `limit` row reads; callers yield to the event loop between slices.
 */
export function orderStatsSlice(
  db: Db,
  input: { since: number; after: { createdAt: number; id: string } | null; limit: number },
): OrderStatRow[] {
  const keyset = input.after ? 'AND (created_at, id) > (@afterAt, @afterId)' : '';
  return db.$client
    .prepare(
      `SELECT created_at AS createdAt, id, type, chain, symbol, status, decimals, amount_base AS amountBase,
         actual_amount_base AS actualAmountBase
       FROM orders INDEXED BY orders_created WHERE created_at >= @since ${keyset}
       ORDER BY created_at, id LIMIT ${Math.max(1, Math.floor(input.limit))}`,
    )
    .all({
      since: input.since,
      ...(input.after ? { afterAt: input.after.createdAt, afterId: input.after.id } : {}),
    }) as OrderStatRow[];
}

/** Orders not final yet (INIT, PENDING, PENDING_CONFIRMATION) counted by type and status, via the status index. */
export function openOrderCounts(db: Db): { type: string; status: string; n: number }[] {
  return db.$client
    .prepare(
      `SELECT type, status, count(*) AS n FROM orders
       WHERE status IN ('INIT', 'PENDING', 'PENDING_CONFIRMATION') GROUP BY type, status`,
    )
    .all() as { type: string; status: string; n: number }[];
}
