import type { ChainAdapter, ChainHeads } from '../../chains/port.ts';
import type { BlockHash, Cursor } from '../../db/store.ts';
import type { Deps } from '../deps.ts';
import type { TokenRef } from '../payout-funding.ts';
import { logMoves } from './log-moves.ts';
import { planTransferWrites } from './plan-transfer-writes.ts';
import { relocateTransfers, vanishedTransfers } from './relocate-transfers.ts';

/** A reorganisation found at the checkpoint, as logged and counted. */
export interface ReorgFound {
  /** The checkpoint before: the last block whose transfers were all stored. */
  checkpoint: number;
  /** The highest block Kassa read that is still on the chain; null when none it kept a hash of is. */
  forkedAfter: number | null;
  /** Blocks Kassa had read that the chain replaced (or dropped): checkpoint − forkedAfter. */
  depth: number;
  /** Where scanning resumes from (the new checkpoint). */
  rewoundTo: number;
}

/**
 * Proves the checkpoint is still on the canonical chain before a pass resumes from it, whatever the
 * chain's final height is now: its block must still carry the hash recorded with it. When it does
 * not (a reorganisation while Kassa was down, between two polls, or since the last step), the
 * hashes of the blocks the checkpoint read before they were final are compared with the chain (a
 * binary search: a block that is still there vouches for all below it) and the checkpoint goes back
 * to the highest one still there, or to the final height recorded with it when none is. Transfers
 * recorded in blocks that left the chain are looked up by transaction id: one mined again elsewhere
 * is recorded in its new block, the others are orphaned and their orders recomputed (rolled back,
 * with ORDER_REVERTED, when nothing is left). All of it is one write with the new checkpoint; the
 * reorganisation is logged at warn and counted. Returns the checkpoint to scan from.
 *
 * A node that shows no block at the checkpoint (its head is below it, or it has none there: a
 * backend behind a load balancer that lags) proves no reorganisation by that alone: the checkpoint
 * is kept and the pass waits for the node, unless the node shows another block than the one
 * recorded at the highest height Kassa recorded up to its head.
 */
export async function verifyCheckpoint(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  heads: ChainHeads,
  cursor: Cursor,
): Promise<{ cursor: Cursor; reorg: ReorgFound | null }> {
  if (cursor.height <= heads.head) {
    // an empty hash: a checkpoint set by hand, or at a height the node had no block for (pruned)
    if (!cursor.heightHash) return { cursor, reorg: null };
    const block = await adapter.block(cursor.height);
    if (block && block.hash === cursor.heightHash) return { cursor, reorg: null };
    if (block) return rewind(deps, adapter, tokens, heads, cursor);
  }
  if (await showsReplacedBlock(deps, adapter, heads, cursor))
    return rewind(deps, adapter, tokens, heads, cursor);
  deps.logger.info(
    { chain: adapter.chain, checkpoint: cursor.height, head: heads.head },
    'the RPC shows no block at the checkpoint yet (it lags behind); waiting for it',
  );
  return { cursor, reorg: null };
}

/**
 * Whether a node that shows no block at the checkpoint shows another block than Kassa recorded at
 * the highest recorded height it has (at or below its head): the only evidence that the chain was
 * reorganised rather than the node lagging behind.
 */
async function showsReplacedBlock(
  deps: Pick<Deps, 'db'>,
  adapter: ChainAdapter,
  heads: ChainHeads,
  cursor: Cursor,
): Promise<boolean> {
  const probe = (await deps.db.unfinalBlocks(adapter.chain))
    .filter((b) => b.height <= heads.head && b.height <= cursor.height)
    .at(-1);
  if (!probe) return false;
  const block = await adapter.block(probe.height);
  return block !== null && block.hash !== probe.hash;
}

/** The highest recorded block still on the chain (matches form a prefix: a block vouches for its ancestors). */
async function highestStillThere(adapter: ChainAdapter, recorded: BlockHash[]): Promise<BlockHash | null> {
  let lo = 0;
  let hi = recorded.length - 1;
  let best: BlockHash | null = null;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const candidate = recorded[mid] as BlockHash;
    const block = await adapter.block(candidate.height);
    if (block?.hash === candidate.hash) {
      best = candidate;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

async function rewind(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  heads: ChainHeads,
  cursor: Cursor,
): Promise<{ cursor: Cursor; reorg: ReorgFound }> {
  const chain = adapter.chain;
  const recorded = (await deps.db.unfinalBlocks(chain)).filter(
    (b) => b.height < cursor.height && b.height <= heads.head,
  );
  const match = await highestStillThere(adapter, recorded);
  // Never below the final height recorded with the checkpoint: blocks final then are final for good.
  const floor = Math.max(0, Math.min(cursor.finalHeight, cursor.height - 1, heads.head));
  const height = match ? Math.max(match.height, floor) : floor;
  const block = await adapter.block(height);
  const reorg: ReorgFound = {
    checkpoint: cursor.height,
    forkedAfter: match?.height ?? null,
    depth: cursor.height - (match?.height ?? floor),
    rewoundTo: height,
  };
  // the checkpoint itself, or the final block recorded with it, was replaced: deeper than finality
  const finalReplaced =
    cursor.height <= cursor.finalHeight || (recorded[0]?.height ?? Infinity) <= cursor.finalHeight;
  if (!match && finalReplaced) {
    deps.logger.error(
      { chain, checkpoint: cursor.height, recordedFinal: cursor.finalHeight, head: heads.head },
      'the chain replaced a block Kassa had taken as final; transfers credited as final stay credited',
    );
  }

  const { vanished } = await vanishedTransfers(adapter, await deps.db.pendingTransfers(chain), heads.head);
  const relocated = vanished.length > 0 ? await relocateTransfers(adapter, tokens, vanished) : [];
  const plan = await planTransferWrites(deps, chain, tokens, heads, {
    observed: relocated,
    changes: vanished.map((transfer) => ({ transfer, status: 'orphaned' as const })),
  });
  const next: Cursor = {
    chain,
    height,
    heightHash: block?.hash ?? '',
    heightTime: block?.timestamp ?? 0,
    finalHeight: cursor.finalHeight,
  };
  await deps.db.recordScan({
    chain,
    transfers: plan.writes,
    statusChanges: plan.statusChanges,
    transitions: plan.transitions,
    cursor: next,
    base: cursor,
    blocks: block ? [{ height, hash: block.hash }] : [],
    reorg: { depth: reorg.depth },
    now: deps.clock.now(),
  });
  deps.logger.warn(
    {
      chain,
      depth: reorg.depth,
      checkpoint: reorg.checkpoint,
      forkedAfter: reorg.forkedAfter,
      rescanFrom: height + 1,
      head: heads.head,
      final: heads.final,
      orphaned: plan.statusChanges.filter((c) => c.status === 'orphaned').length,
      relocated: plan.writes.length,
      orders: plan.touched.map((o) => o.orderId),
    },
    'chain reorganisation: the checkpoint left the chain; rescanning from the fork',
  );
  logMoves(deps.logger, chain, plan.transitions, {
    level: 'warn',
    message: 'collection moved by a reorganisation',
  });
  return { cursor: next, reorg };
}
