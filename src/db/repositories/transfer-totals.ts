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

/** Where the next slice starts: opaque to callers (a position in the table, never shown anywhere). */
export type SliceCursor = number & { readonly slice: unique symbol };

/**
 * Final transfers to deposit addresses, `limit` rows of the table at a time from `after` (null: the
 * start), in storage order, so adding up a large table reads it sequentially (three times faster
 * than in id order here) and callers can yield to the event loop between slices. Returns the final
 * rows of the slice and the cursor of the next one (null after the last).
 */
export function finalTransfersSlice(
  db: Db,
  input: { after: SliceCursor | null; limit: number },
): { rows: FinalTransferRow[]; next: SliceCursor | null } {
  const limit = Math.max(1, Math.floor(input.limit));
  const raw = db.$client
    .prepare(
      `SELECT rowid AS position, id, chain, symbol, token_contract AS tokenContract, amount_base AS amountBase,
         status, order_ref IS NULL AS unattributed
       FROM chain_transfers WHERE rowid > @after ORDER BY rowid LIMIT ${limit}`,
    )
    .all({ after: input.after ?? 0 }) as (Omit<FinalTransferRow, 'unattributed'> & {
    position: number;
    status: string;
    unattributed: number;
  })[];
  const last = raw[raw.length - 1];
  return {
    rows: raw
      .filter((r) => r.status === 'final')
      .map((r) => ({
        id: r.id,
        chain: r.chain,
        symbol: r.symbol,
        tokenContract: r.tokenContract,
        amountBase: r.amountBase,
        unattributed: r.unattributed === 1,
      })),
    next: raw.length === limit && last ? (last.position as SliceCursor) : null,
  };
}
