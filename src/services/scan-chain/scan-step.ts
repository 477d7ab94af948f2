import type { BlockRef, ChainAdapter, ChainHeads } from '../../chains/port.ts';
import type { BlockHash, Cursor } from '../../db/store.ts';
import { mapLimit } from '../../lib/map-limit.ts';
import type { Deps } from '../deps.ts';
import type { TokenRef } from '../payout-funding.ts';
import { logMoves } from './log-moves.ts';
import { planTransferWrites } from './plan-transfer-writes.ts';

/** How long after an order became final its address is still watched, so late payments are recorded. */
export const LATE_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** The hashes of blocks [first, last] (first may exceed last: none), read through the adapter. */
async function blockHashes(adapter: ChainAdapter, first: number, last: number): Promise<BlockHash[] | null> {
  const heights = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
  const refs = await mapLimit(heights, 8, (h) => adapter.block(h));
  if (refs.some((r) => r === null)) return null;
  return (refs as BlockRef[]).map((r) => ({ height: r.number, hash: r.hash }));
}

/**
 * One step of a pass: reads blocks [from, to] for transfers to the watched addresses and writes
 * what it found in one transaction with the new checkpoint (`to`) and the hashes of the blocks it
 * read before they were final. Returns null, writing nothing, when the chain moved under the read
 * (the block at `to` changed, a block vanished) or the checkpoint `base` left the chain: the pass
 * stops and the next one starts from a checkpoint proven again.
 */
export async function scanStep(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  heads: ChainHeads,
  range: { from: number; to: number; base: Cursor },
): Promise<{ cursor: Cursor; transfers: number; transitions: number } | null> {
  const { from, to, base } = range;
  const chain = adapter.chain;
  const watched = await deps.db.watchedAddresses(chain, deps.clock.now() - LATE_WINDOW_MS);
  // Token transfers of every configured token are read (a payment in the wrong token is recorded);
  // native-coin transfers only when an order asks for the native coin: finding them reads every block.
  const scanned = tokens.filter((t) => t.contract !== null || watched.native);
  // The block at `to` before and after the scan: if it changed, the chain reorganised under the
  // scan and what it returned may mix two branches; the step is dropped and retried. The hashes of
  // the blocks not final yet are read meanwhile: the next pass proves the checkpoint against them.
  const endBefore = await adapter.block(to);
  if (!endBefore) return null;
  const [observed, unfinal] = await Promise.all([
    adapter.scan(from, to, watched.addresses, scanned),
    blockHashes(adapter, Math.max(from, heads.final), to - 1),
  ]);
  const end = await adapter.block(to);
  if (!end || end.hash !== endBefore.hash || !unfinal) {
    deps.logger.info({ chain, from, to }, 'the chain moved during the scan; retrying the step');
    return null;
  }
  // The checkpoint this step continues from must still be on the chain: a reorganisation between
  // two steps can replace the blocks up to it while this step's own blocks look consistent. The
  // pass stops here; the next one finds the changed checkpoint and rewinds.
  if (base.heightHash) {
    const start = await adapter.block(base.height);
    if (!start || start.hash !== base.heightHash) {
      deps.logger.info(
        { chain, from, to },
        'the checkpoint left the chain between steps; rewinding next pass',
      );
      return null;
    }
  }
  const plan = await planTransferWrites(deps, chain, tokens, heads, { observed });
  const cursor: Cursor = {
    chain,
    height: to,
    heightHash: end.hash,
    heightTime: end.timestamp,
    finalHeight: heads.final,
  };
  await deps.db.recordScan({
    chain,
    transfers: plan.writes,
    statusChanges: plan.statusChanges,
    transitions: plan.transitions,
    cursor,
    base, // refused whole if the checkpoint moved meanwhile (another worker took over)
    blocks: [...unfinal, { height: to, hash: end.hash }],
    now: deps.clock.now(),
  });
  logMoves(deps.logger, chain, plan.transitions);
  return { cursor, transfers: observed.length, transitions: plan.transitions.length };
}
