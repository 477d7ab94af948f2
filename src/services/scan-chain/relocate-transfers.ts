import type { ChainAdapter, ObservedTransfer, TokenSpec } from '../../chains/port.ts';
import type { StoredTransfer } from '../../db/store.ts';
import { mapLimit } from '../../lib/map-limit.ts';
import type { TokenRef } from '../payout-funding.ts';

/** Stored transfers whose block is no longer the canonical one at their height (or is gone). */
export async function vanishedTransfers(
  adapter: ChainAdapter,
  transfers: StoredTransfer[],
): Promise<StoredTransfer[]> {
  const heights = [...new Set(transfers.map((t) => t.blockNum))];
  const blocks = new Map<number, string | null>();
  await mapLimit(heights, 8, async (h) => {
    blocks.set(h, (await adapter.block(h))?.hash ?? null);
  });
  return transfers.filter((t) => blocks.get(t.blockNum) !== t.blockHash);
}

/**
 * Looks up, by transaction id, transfers whose block left the chain: a transaction that a
 * reorganisation mined again in another block is read again there, with the adapter's own scan of
 * that one block, so what comes back is exactly what the canonical chain holds (its new block, hash,
 * log index and success; a block above the pass's head is fine: the scan reaches it later and finds
 * the same). Returns those observations; a transfer not among them is not in any block now
 * (dropped, or back in the mempool) and may be orphaned. Throws what the adapter throws (the caller
 * writes nothing and tries again on its next pass).
 */
export async function relocateTransfers(
  adapter: ChainAdapter,
  tokens: TokenRef[],
  vanished: StoredTransfer[],
): Promise<ObservedTransfer[]> {
  const byTx = new Map<string, StoredTransfer[]>();
  for (const t of vanished) byTx.set(t.txid, [...(byTx.get(t.txid) ?? []), t]);
  const found = await mapLimit([...byTx], 4, async ([txid, rows]) => {
    const where = await adapter.lookup(txid);
    if (where.state !== 'mined') return [];
    const addresses = new Set(rows.map((r) => r.to));
    const specs: TokenSpec[] = tokens.filter((token) =>
      rows.some((r) => (r.contract ?? '').toLowerCase() === (token.contract ?? '').toLowerCase()),
    );
    if (specs.length === 0) return [];
    const seen = await adapter.scan(where.blockNum, where.blockNum, addresses, specs);
    return seen.filter((t) => t.txid === txid);
  });
  return found.flat();
}
