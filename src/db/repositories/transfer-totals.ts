import type { Db } from '../client.ts';

/** A final incoming transfer as the money page adds it up. */
export interface FinalTransferRow {
  id: string;
  chain: string;
  symbol: string;
  tokenContract: string | null;
  amountBase: string;
  /** True when no order took it (late, wrong token, no order). */
  unattributed: boolean;
}

/**
 * Final transfers to deposit addresses, `limit` at a time in id order after `afterId` (a slice of
 * the primary key, so callers can add up a large table without holding the event loop).
 */
export function finalTransfersSlice(
  db: Db,
  input: { afterId: string | null; limit: number },
): FinalTransferRow[] {
  const rows = db.$client
    .prepare(
      `SELECT id, chain, symbol, token_contract AS tokenContract, amount_base AS amountBase,
         order_ref IS NULL AS unattributed
       FROM chain_transfers WHERE status = 'final' ${input.afterId === null ? '' : 'AND id > @afterId'}
       ORDER BY id LIMIT ${Math.max(1, Math.floor(input.limit))}`,
    )
    .all(input.afterId === null ? {} : { afterId: input.afterId }) as (Omit<
    FinalTransferRow,
    'unattributed'
  > & {
    unattributed: number;
  })[];
  return rows.map((r) => ({ ...r, unattributed: r.unattributed === 1 }));
}
