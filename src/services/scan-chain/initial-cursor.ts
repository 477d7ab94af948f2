import type { ChainAdapter, ChainHeads } from '../../chains/port.ts';
import type { Cursor } from '../../db/store.ts';
import type { Deps } from '../deps.ts';
import { LATE_WINDOW_MS } from './scan-step.ts';

/** How far back (in blocks) the first scan of a chain may start, for the oldest order waiting for a payment. */
const MAX_INITIAL_LOOKBACK = 200_000;

/**
 * The first checkpoint of a chain: just before the oldest collection whose payments a first scan
 * must read was created (one still open, or one that expired while the chain had no checkpoint), so
 * nothing paid since Kassa handed out an address falls before it; the head when there is none. The
 * block is found by a binary search on block times, at most MAX_INITIAL_LOOKBACK blocks back; a
 * height the node no longer serves (a pruning Sui node) counts as older. Written at once.
 */
export async function initialCursor(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  heads: ChainHeads,
): Promise<Cursor> {
  const oldest = await deps.db.oldestUnscannedCollectionAt(adapter.chain, deps.clock.now() - LATE_WINDOW_MS);
  let height = heads.head;
  if (oldest !== null) {
    const target = Math.floor(oldest / 1000) - 60;
    let lo = Math.max(0, heads.head - MAX_INITIAL_LOOKBACK);
    let hi = heads.head;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const b = await adapter.block(mid);
      // no block below the head: history the node no longer serves (a pruning Sui node), so older
      if (!b || b.timestamp < target) lo = mid;
      else hi = mid - 1;
    }
    height = Math.max(0, lo - 1);
  }
  const block = await adapter.block(height);
  const cursor: Cursor = {
    chain: adapter.chain,
    height,
    heightHash: block?.hash ?? '',
    heightTime: block?.timestamp ?? 0,
    finalHeight: heads.final,
  };
  await deps.db.recordScan({
    chain: adapter.chain,
    transfers: [],
    statusChanges: [],
    transitions: [],
    cursor,
    base: null, // the first checkpoint: refused if another worker wrote one meanwhile
    blocks: block ? [{ height, hash: block.hash }] : [],
    now: deps.clock.now(),
  });
  deps.logger.info(
    { chain: adapter.chain, height, head: heads.head },
    'first scan of this chain starts here',
  );
  return cursor;
}
