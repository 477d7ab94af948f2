import type { BlockRef, ChainAdapter, ChainHeads } from '../chains/port.ts';
import {
  type BlockHash,
  type Cursor,
  collectionsAwaitingFinality,
  getCursor,
  oldestUnscannedCollectionAt,
  pendingTransfers,
  recordScan,
  watchedAddresses,
} from '../db/repositories/chain-scan.ts';
import type { OrderTransition } from '../db/repositories/orders.ts';
import type { Logger } from '../lib/logger.ts';
import { mapLimit } from '../lib/map-limit.ts';
import type { Deps } from './deps.ts';
import type { TokenRef } from './payout-funding.ts';
import { planTransferWrites } from './plan-transfer-writes.ts';
import { relocateTransfers, vanishedTransfers } from './relocate-transfers.ts';
import { verifyCheckpoint } from './verify-checkpoint.ts';

/** How long after an order became final its address is still watched, so late payments are recorded. */
export const LATE_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** How far back (in blocks) the first scan of a chain may start, for the oldest order waiting for a payment. */
const MAX_INITIAL_LOOKBACK = 200_000;

export interface ScanSummary {
  head: number;
  final: number;
  scannedTo: number;
  blocks: number;
  transfers: number;
  transitions: number;
  reorg: boolean;
}

type Pick2 = Pick<Deps, 'db' | 'clock' | 'logger'>;

/**
 * One scan pass of a chain: proves the checkpoint is still on the canonical chain (verify-checkpoint:
 * after a reorganisation it goes back to the fork, what vanished is looked up again or orphaned),
 * scans forward to the head in steps, each step written atomically with its transfers, order
 * transitions, webhook events, the new checkpoint and the hashes of the blocks it read before they
 * were final, then promotes transfers that became final and refreshes confirmations. Safe to run
 * again at any point, or to stop at any point (a killed worker): every write is keyed and guarded.
 */
export async function scanChain(
  deps: Pick2,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  signal: AbortSignal,
): Promise<ScanSummary> {
  const chain = adapter.chain;
  const heads = await adapter.heads();
  const stored = getCursor(deps.db, chain) ?? (await initialCursor(deps, adapter, heads));
  const verified = await verifyCheckpoint(deps, adapter, tokens, heads, stored);
  let cursor = verified.cursor;
  const summary: ScanSummary = {
    head: heads.head,
    final: heads.final,
    scannedTo: cursor.height,
    blocks: 0,
    transfers: 0,
    transitions: 0,
    reorg: verified.reorg !== null,
  };
  const started = Date.now();
  let lastProgress = started;
  const startHeight = cursor.height;
  while (cursor.height < heads.head && !signal.aborted) {
    const from = cursor.height + 1;
    const to = Math.min(heads.head, cursor.height + adapter.scanStep());
    const step = await scanStep(deps, adapter, tokens, heads, from, to, cursor);
    if (!step) break;
    cursor = step.cursor;
    summary.blocks += to - from + 1;
    summary.transfers += step.transfers;
    summary.transitions += step.transitions;
    summary.scannedTo = cursor.height;
    const now = Date.now();
    if (now - lastProgress > 2000 && heads.head - cursor.height > 0) {
      lastProgress = now;
      const done = cursor.height - startHeight;
      deps.logger.info(
        {
          chain,
          done,
          todo: heads.head - cursor.height,
          blocksPerSecond: Math.round((done * 1000) / (now - started)),
        },
        'catching up',
      );
    }
  }
  if (summary.blocks > 500) {
    const ms = Date.now() - started;
    deps.logger.info(
      {
        chain,
        blocks: summary.blocks,
        ms,
        blocksPerSecond: Math.round((summary.blocks * 1000) / Math.max(ms, 1)),
      },
      'caught up',
    );
  }
  summary.transitions += await settle(deps, adapter, tokens, heads, cursor);
  return summary;
}

/** The hashes of blocks [first, last] (first may exceed last: none), read through the adapter. */
async function blockHashes(adapter: ChainAdapter, first: number, last: number): Promise<BlockHash[] | null> {
  const heights = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
  const refs = await mapLimit(heights, 8, (h) => adapter.block(h));
  if (refs.some((r) => r === null)) return null;
  return (refs as BlockRef[]).map((r) => ({ height: r.number, hash: r.hash }));
}

async function scanStep(
  deps: Pick2,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  heads: ChainHeads,
  from: number,
  to: number,
  base: Cursor,
): Promise<{ cursor: Cursor; transfers: number; transitions: number } | null> {
  const chain = adapter.chain;
  const now = deps.clock.now();
  const watched = watchedAddresses(deps.db, chain, now - LATE_WINDOW_MS);
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
  const plan = planTransferWrites(deps, chain, tokens, heads, { observed });
  const cursor: Cursor = {
    chain,
    height: to,
    heightHash: end.hash,
    heightTime: end.timestamp,
    finalHeight: heads.final,
  };
  recordScan(deps.db, {
    chain,
    transfers: plan.writes,
    statusChanges: plan.statusChanges,
    transitions: plan.transitions,
    cursor,
    blocks: [...unfinal, { height: to, hash: end.hash }],
    now: deps.clock.now(),
  });
  logMoves(deps.logger, chain, plan.transitions);
  return { cursor, transfers: observed.length, transitions: plan.transitions.length };
}

function logMoves(logger: Logger, chain: string, transitions: OrderTransition[]): void {
  for (const t of transitions) {
    if (t.patch.status !== t.order.status) {
      logger.info(
        { chain, orderId: t.order.orderId, from: t.order.status, to: t.patch.status },
        'collection moved',
      );
    }
  }
}

/**
 * The first checkpoint of a chain: just before the oldest collection whose payments a first scan
 * must read was created (one still open, or one that expired while the chain had no checkpoint), so
 * nothing paid since Kassa handed out an address falls before it; the head when there is none.
 */
async function initialCursor(deps: Pick2, adapter: ChainAdapter, heads: ChainHeads): Promise<Cursor> {
  const oldest = oldestUnscannedCollectionAt(deps.db, adapter.chain, deps.clock.now() - LATE_WINDOW_MS);
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
  recordScan(deps.db, {
    chain: adapter.chain,
    transfers: [],
    statusChanges: [],
    transitions: [],
    cursor,
    blocks: block ? [{ height, hash: block.hash }] : [],
    now: deps.clock.now(),
  });
  deps.logger.info(
    { chain: adapter.chain, height, head: heads.head },
    'first scan of this chain starts here',
  );
  return cursor;
}

/**
 * Promotes pending transfers in blocks that are now final, after checking their block is still the
 * canonical one: one whose block left the chain is looked up by its transaction id and recorded in
 * its new block when the chain mined it again, and orphaned otherwise. Refreshes the confirmations of
 * every collection waiting for finality, and the final height recorded with the checkpoint. Returns
 * how many orders changed.
 */
async function settle(
  deps: Pick2,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  heads: ChainHeads,
  cursor: Cursor,
): Promise<number> {
  const chain = adapter.chain;
  const pending = pendingTransfers(deps.db, chain).filter((t) => t.blockNum <= heads.final);
  const { vanished, unseen } = await vanishedTransfers(adapter, pending, heads.head);
  // a block the node does not show yet is neither final nor gone: it is looked at again next pass
  const waiting = new Set(unseen.map((t) => t.id));
  const due = pending.filter((t) => !waiting.has(t.id));
  const gone = new Set(vanished.map((t) => t.id));
  const relocated = vanished.length > 0 ? await relocateTransfers(adapter, tokens, vanished) : [];
  const plan = planTransferWrites(deps, chain, tokens, heads, {
    observed: relocated,
    changes: due.map((transfer) => ({
      transfer,
      status: gone.has(transfer.id) ? ('orphaned' as const) : ('final' as const),
    })),
    extraOrders: collectionsAwaitingFinality(deps.db, chain),
  });
  const finalMoved = heads.final > cursor.finalHeight;
  if (
    plan.writes.length === 0 &&
    plan.statusChanges.length === 0 &&
    plan.transitions.length === 0 &&
    !finalMoved
  ) {
    return 0;
  }
  recordScan(deps.db, {
    chain,
    transfers: plan.writes,
    statusChanges: plan.statusChanges,
    transitions: plan.transitions,
    cursor: finalMoved ? { ...cursor, finalHeight: heads.final } : null,
    now: deps.clock.now(),
  });
  if (vanished.length > 0) {
    deps.logger.warn(
      {
        chain,
        final: heads.final,
        vanished: vanished.length,
        relocated: plan.writes.length,
        orders: plan.touched.map((o) => o.orderId),
      },
      'transfers due for finality left the chain: moved to their new block or orphaned',
    );
  }
  logMoves(deps.logger, chain, plan.transitions);
  return plan.transitions.length;
}
