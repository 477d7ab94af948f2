import { and, asc, count, gte, inArray, sql } from 'drizzle-orm';
import type { OrderStatRow } from '../../repositories/order-stats.ts';
import type { PgExecutor } from '../client.ts';
import { orders } from '../schema/orders.ts';

/**
 * Orders created at or after `since`, oldest first, `limit` at a time after `after` (creation time
 * and id of the last row of the previous slice). Read through the creation-time index, so each
 * slice costs about `limit` row reads; callers yield to the event loop between slices.
 */
export async function orderStatsSlice(
  ex: PgExecutor,
  input: { since: number; after: { createdAt: number; id: string } | null; limit: number },
): Promise<OrderStatRow[]> {
  const after = input.after;
  return ex
    .select({
      createdAt: orders.createdAt,
      id: orders.id,
      type: orders.type,
      chain: orders.chain,
      symbol: orders.symbol,
      status: orders.status,
      decimals: orders.decimals,
      amountBase: orders.amountBase,
      actualAmountBase: orders.actualAmountBase,
    })
    .from(orders)
    .where(
      and(
        gte(orders.createdAt, input.since),
        after ? sql`(${orders.createdAt}, ${orders.id}) > (${after.createdAt}, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(Math.max(1, Math.floor(input.limit)));
}

/** Orders not final yet (INIT, PENDING, PENDING_CONFIRMATION) counted by type and status, via the status index. */
export async function openOrderCounts(
  ex: PgExecutor,
): Promise<{ type: string; status: string; n: number }[]> {
  return ex
    .select({ type: orders.type, status: orders.status, n: count() })
    .from(orders)
    .where(inArray(orders.status, ['INIT', 'PENDING', 'PENDING_CONFIRMATION']))
    .groupBy(orders.type, orders.status);
}
