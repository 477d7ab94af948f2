import type { ChainAdapter, ChainHeads } from '../../chains/port.ts';
import type { Cursor } from '../../db/store.ts';
import type { Deps } from '../deps.ts';
import type { TokenRef } from '../payout-funding.ts';
import { logMoves } from './log-moves.ts';
import { planTransferWrites } from './plan-transfer-writes.ts';
import { relocateTransfers, vanishedTransfers } from './relocate-transfers.ts';

/**
 * Promotes pending transfers in blocks that are now final, after checking their block is still the
 * canonical one: one whose block left the chain is looked up by its transaction id and recorded in
 * its new block when the chain mined it again, and orphaned otherwise. Refreshes the confirmations of
 * every collection waiting for finality, and the final height recorded with the checkpoint. Returns
 * how many orders changed.
 */
export async function settle(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  heads: ChainHeads,
  cursor: Cursor,
): Promise<number> {
  const chain = adapter.chain;
  const pending = (await deps.db.pendingTransfers(chain)).filter((t) => t.blockNum <= heads.final);
  const { vanished, unseen } = await vanishedTransfers(adapter, pending, heads.head);
  // a block the node does not show yet is neither final nor gone: it is looked at again next pass
  const waiting = new Set(unseen.map((t) => t.id));
  const due = pending.filter((t) => !waiting.has(t.id));
  const gone = new Set(vanished.map((t) => t.id));
  const relocated = vanished.length > 0 ? await relocateTransfers(adapter, tokens, vanished) : [];
  const plan = await planTransferWrites(deps, chain, tokens, heads, {
    observed: relocated,
    changes: due.map((transfer) => ({
      transfer,
      status: gone.has(transfer.id) ? ('orphaned' as const) : ('final' as const),
    })),
    extraOrders: await deps.db.collectionsAwaitingFinality(chain),
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
  await deps.db.recordScan({
    chain,
    transfers: plan.writes,
    statusChanges: plan.statusChanges,
    transitions: plan.transitions,
    cursor: finalMoved ? { ...cursor, finalHeight: heads.final } : null,
    base: cursor,
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
