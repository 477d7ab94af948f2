import { sql } from 'drizzle-orm';
import type { SweepCandidate } from '../../repositories/sweep-candidates.ts';
import type { PgExecutor } from '../client.ts';

/**
 * Deposit addresses of a family that may be swept on `chain`: every final incoming transfer there
 * counts, and the address's order (if it has one) must be final (SUCCESS, EXPIRED, FAILED), so an
 * open order's address is never touched. Addresses with a transfer not final yet on the chain, or
 * with an open sweep on it, are left out. One statement (one snapshot, so the transfers and the
 * sweeps it subtracts are read at the same moment); amounts are summed exactly as numeric, never as
 * a float. Ordered by address and symbol.
 */
export async function sweepCandidates(
  db: PgExecutor,
  input: { chain: string; family: 'evm' | 'tron' | 'sui' },
): Promise<SweepCandidate[]> {
  const { chain, family } = input;
  const result = await db.execute<{
    address: string;
    depositIndex: number;
    symbol: string;
    tokenContract: string | null;
    unsweptBase: string;
  }>(sql`
    WITH seen AS (
      SELECT t.to_address AS address, t.symbol, t.token_contract, t.amount_base, t.status,
             d.idx, o.status AS order_status
      FROM chain_transfers t
      JOIN deposit_addresses d ON d.address = t.to_address AND d.family = ${family}
      LEFT JOIN orders o ON o.id = d.order_ref
      WHERE t.chain = ${chain} AND t.status IN ('pending', 'final')
    ),
    blocked AS (
      SELECT address FROM seen
      WHERE status = 'pending' OR order_status NOT IN ('SUCCESS', 'EXPIRED', 'FAILED')
      UNION
      SELECT address FROM sweeps WHERE chain = ${chain} AND status NOT IN ('final', 'failed')
    ),
    came_in AS (
      SELECT address, symbol, min(idx) AS idx, min(token_contract) AS token_contract,
             sum(amount_base::numeric) AS base
      FROM seen WHERE status = 'final' GROUP BY address, symbol
    ),
    went_out AS (
      SELECT address, symbol, sum(amount_base::numeric) AS base
      FROM sweeps WHERE chain = ${chain} AND status = 'final' GROUP BY address, symbol
    )
    SELECT i.address, i.idx AS "depositIndex", i.symbol, i.token_contract AS "tokenContract",
           (i.base - coalesce(o.base, 0))::text AS "unsweptBase"
    FROM came_in i LEFT JOIN went_out o ON o.address = i.address AND o.symbol = i.symbol
    WHERE i.base - coalesce(o.base, 0) > 0
      AND NOT EXISTS (SELECT 1 FROM blocked b WHERE b.address = i.address)
    ORDER BY i.address, i.symbol`);
  return result.rows.map((r) => ({ ...r, unsweptBase: BigInt(r.unsweptBase) }));
}
