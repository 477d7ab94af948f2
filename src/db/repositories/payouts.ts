import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { orders } from '../schema/orders.ts';

/**
 * Sum and count of a token's payouts whose money has not left the hot wallet yet on a chain: INIT
 * (queued) and PENDING (broadcast, not mined). Mined payouts already show in the on-chain balance.
 */
export function queuedPayoutTotals(
  db: Db,
  chain: string,
  symbol: string,
): { amountBase: bigint; count: number } {
  const rows = db
    .select({ amountBase: orders.amountBase })
    .from(orders)
    .where(
      and(
        eq(orders.chain, chain),
        eq(orders.symbol, symbol),
        eq(orders.type, 'PAYOUT'),
        inArray(orders.status, ['INIT', 'PENDING']),
      ),
    )
    .all();
  let total = 0n;
  for (const r of rows) total += BigInt(r.amountBase);
  return { amountBase: total, count: rows.length };
}
