import { asc, gt } from 'drizzle-orm';
import type { FinalTransferRow, SliceCursor } from '../../repositories/transfer-totals.ts';
import type { PgExecutor } from '../client.ts';
import { chainTransfers } from '../schema/chain-transfers.ts';

/**
 * Final transfers to deposit addresses, `limit` rows of the table at a time from `after` (null: the
 * start), in the order of their ids (PostgreSQL has no stable rowid: a row's ctid moves when it is
 * updated, so paging by it could skip a row), so callers can yield to the event loop between
 * slices. Returns the final rows of the slice and the cursor of the next one (null after the last).
 * The cursor is the last id read: opaque to callers, who only hand it back.
 */
export async function finalTransfersSlice(
  ex: PgExecutor,
  input: { after: SliceCursor | null; limit: number },
): Promise<{ rows: FinalTransferRow[]; next: SliceCursor | null }> {
  const limit = Math.max(1, Math.floor(input.limit));
  const after = input.after as unknown as string | null;
  const raw = await ex
    .select({
      id: chainTransfers.id,
      chain: chainTransfers.chain,
      symbol: chainTransfers.symbol,
      tokenContract: chainTransfers.tokenContract,
      amountBase: chainTransfers.amountBase,
      status: chainTransfers.status,
      orderRef: chainTransfers.orderRef,
    })
    .from(chainTransfers)
    .where(after === null ? undefined : gt(chainTransfers.id, after))
    .orderBy(asc(chainTransfers.id))
    .limit(limit);
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
        unattributed: r.orderRef === null,
      })),
    next: raw.length === limit && last ? (last.id as unknown as SliceCursor) : null,
  };
}
