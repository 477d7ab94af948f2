import { sql } from 'drizzle-orm';
import type * as sqlite from '../../repositories/operator-costs.ts';
import type { PgExecutor } from '../client.ts';
import { operatorCosts } from '../schema/operator-costs.ts';

/**
 * Operator costs per chain, kind and native symbol, summed exactly as numeric (amounts are TEXT in
 * base units and never pass through a float), ordered by chain and kind.
 */
export async function sumOperatorCosts(db: PgExecutor): ReturnType<typeof sqlite.sumOperatorCosts> {
  const rows = await db
    .select({
      chain: operatorCosts.chain,
      kind: operatorCosts.kind,
      symbol: sql<string>`min(${operatorCosts.symbol})`,
      decimals: sql<number>`min(${operatorCosts.decimals})`.mapWith(Number),
      amountBase: sql<string>`sum(${operatorCosts.amountBase}::numeric)::text`,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(operatorCosts)
    .groupBy(operatorCosts.chain, operatorCosts.kind);
  return rows
    .map((r) => ({ ...r, amountBase: BigInt(r.amountBase) }))
    .sort((a, b) => (a.chain + a.kind).localeCompare(b.chain + b.kind));
}
