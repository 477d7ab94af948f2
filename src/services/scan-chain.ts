import type { ChainAdapter, ChainHeads, ObservedTransfer } from '../chains/port.ts';
import {
  type Cursor,
  collectionsAwaitingFinality,
  collectionsByAddress,
  getCursor,
  oldestOpenCollectionAt,
  ordersByIds,
  pendingTransfers,
  recordScan,
  type StoredTransfer,
  type TransferWrite,
  transfersOfOrders,
  watchedAddresses,
} from '../db/repositories/chain-scan.ts';
import type { OrderTransition } from '../db/repositories/orders.ts';
import { collectionProgress, type TransferFact } from '../domain/collection-progress.ts';
import { isFinalStatus, type Order } from '../domain/order.ts';
import { newId } from '../lib/ids.ts';
import { mapLimit } from '../lib/map-limit.ts';
import type { Deps } from './deps.ts';
import type { TokenRef } from './payout-funding.ts';

/** How long after an order became final its address is still watched, so late payments are recorded. */
export const LATE_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** How far back the first scan of a chain may look for the oldest open order's payments. */
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

function sameContract(a: string | null, b: string | null): boolean {
  return (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
}

/** Why a transfer is not credited to the order at its address, or null when it is. */
function unattributedReason(
  t: ObservedTransfer,
  order: Order | undefined,
  alreadyCredited: boolean,
): string | null {
  if (!order) return 'no-order';
  if (!sameContract(order.tokenContract, t.contract)) return 'wrong-token';
  if (t.timestamp * 1000 > order.expiresAt) return 'late';
  if (isFinalStatus(order.status) && !alreadyCredited) return 'order-final';
  return null;
}

function key(t: { txid: string; eventKey: string }): string {
  return `${t.txid}|${t.eventKey}`;
}

/** Recomputes orders from their stored transfers overlaid with `overrides` (by transfer key). */
function transitionsFor(
  orders: Iterable<Order>,
  stored: Map<string, StoredTransfer[]>,
  overrides: Map<string, Map<string, TransferFact>>,
  head: number,
): OrderTransition[] {
  const out: OrderTransition[] = [];
  for (const order of orders) {
    if (isFinalStatus(order.status)) continue;
    const facts = new Map<string, TransferFact>();
    for (const f of stored.get(order.id) ?? []) facts.set(key(f), f);
    for (const [k, f] of overrides.get(order.id) ?? []) facts.set(k, f);
    const change = collectionProgress(order, [...facts.values()], head);
    if (change) out.push({ order, patch: change });
  }
  return out;
}

/**
 * One scan pass of a chain: checks the checkpoint block is still canonical (rewinding to the final
 * height after a reorganisation and orphaning what vanished), scans forward to the head in steps,
 * each step written atomically with its transfers, order transitions, webhook events and the new
 * checkpoint, then promotes transfers that became final and refreshes confirmations. Safe to run
 * again at any point: every write is keyed and guarded.
 */
export async function scanChain(
  deps: Pick2,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  signal: AbortSignal,
): Promise<ScanSummary> {
  const chain = adapter.chain;
  const heads = await adapter.heads();
  let cursor = getCursor(deps.db, chain) ?? (await initialCursor(deps, adapter, heads));
  let reorg = false;
  if (cursor.heightHash && cursor.height > heads.final) {
    const block = await adapter.block(cursor.height);
    if (!block || block.hash !== cursor.heightHash) {
      reorg = true;
      cursor = await rewind(deps, adapter, heads, cursor);
    }
  }
  if (cursor.height > heads.head) {
    // The chain is shorter than our checkpoint (a reorg onto a shorter branch): treat as above.
    reorg = true;
    cursor = await rewind(deps, adapter, heads, cursor);
  }
  const summary: ScanSummary = {
    head: heads.head,
    final: heads.final,
    scannedTo: cursor.height,
    blocks: 0,
    transfers: 0,
    transitions: 0,
    reorg,
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
  summary.transitions += await settle(deps, adapter, heads);
  return summary;
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
  // scan and what it returned may mix two branches; the step is dropped and retried.
  const endBefore = await adapter.block(to);
  if (!endBefore) return null;
  const observed = await adapter.scan(from, to, watched.addresses, scanned);
  const end = await adapter.block(to);
  if (!end || end.hash !== endBefore.hash) {
    deps.logger.info({ chain, from, to }, 'the chain moved during the scan; retrying the step');
    return null;
  }
  // The checkpoint this step continues from must still be on the chain: a reorganisation between
  // two steps can replace the blocks up to it while this step's own blocks look consistent. The
  // pass stops here; the next one finds the changed checkpoint and rewinds.
  if (base.heightHash && base.height > heads.final) {
    const start = await adapter.block(base.height);
    if (!start || start.hash !== base.heightHash) {
      deps.logger.info(
        { chain, from, to },
        'the checkpoint left the chain between steps; rewinding next pass',
      );
      return null;
    }
  }
  const byAddress = collectionsByAddress(deps.db, chain, [...new Set(observed.map((t) => t.to))]);
  const stored = transfersOfOrders(deps.db, [...new Set([...byAddress.values()].map((o) => o.id))]);
  const credited = new Set([...stored.values()].flat().map(key));
  const writes: TransferWrite[] = [];
  const overrides = new Map<string, Map<string, TransferFact>>();
  for (const t of observed) {
    const order = byAddress.get(t.to);
    const reason = unattributedReason(t, order, credited.has(key(t)));
    const token = tokens.find((x) => sameContract(x.contract, t.contract));
    const status = !t.success ? 'failed' : t.blockNum <= heads.final ? 'final' : 'pending';
    writes.push({
      id: newId('dep'),
      chain,
      txid: t.txid,
      eventKey: t.eventKey,
      blockNum: t.blockNum,
      blockHash: t.blockHash,
      blockTimestamp: t.timestamp,
      fromAddress: t.from,
      toAddress: t.to,
      tokenContract: t.contract,
      symbol: token?.symbol ?? 'UNKNOWN',
      amountBase: t.amountBase,
      status,
      orderRef: reason ? null : (order?.id ?? null),
      unattributedReason: reason,
    });
    if (!reason && order) {
      const facts = overrides.get(order.id) ?? new Map<string, TransferFact>();
      facts.set(key(t), { ...t, status });
      overrides.set(order.id, facts);
    } else if (reason) {
      deps.logger.warn(
        { chain, txid: t.txid, to: t.to, reason, amount: t.amountBase.toString() },
        'unattributed deposit',
      );
    }
  }
  const affected = [...byAddress.values()].filter((o) => overrides.has(o.id));
  const transitions = transitionsFor(affected, stored, overrides, heads.head);
  const cursor: Cursor = {
    chain,
    height: to,
    heightHash: end.hash,
    heightTime: end.timestamp,
    finalHeight: heads.final,
  };
  recordScan(deps.db, {
    chain,
    transfers: writes,
    statusChanges: [],
    transitions,
    cursor,
    now: deps.clock.now(),
  });
  for (const t of transitions) {
    if (t.patch.status !== t.order.status) {
      deps.logger.info(
        { chain, orderId: t.order.orderId, from: t.order.status, to: t.patch.status },
        'collection moved',
      );
    }
  }
  return { cursor, transfers: writes.length, transitions: transitions.length };
}

/** The first checkpoint of a chain: just before the oldest open order was created, or the head. */
async function initialCursor(deps: Pick2, adapter: ChainAdapter, heads: ChainHeads): Promise<Cursor> {
  const oldest = oldestOpenCollectionAt(deps.db, adapter.chain);
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
    now: deps.clock.now(),
  });
  deps.logger.info(
    { chain: adapter.chain, height, head: heads.head },
    'first scan of this chain starts here',
  );
  return cursor;
}

/**
 * After a reorganisation: every not-final transfer whose block is no longer canonical is orphaned
 * (its order recomputed, possibly rolled back), and the checkpoint goes back to the final height so
 * the changed blocks are scanned again.
 */
async function rewind(
  deps: Pick2,
  adapter: ChainAdapter,
  heads: ChainHeads,
  cursor: Cursor,
): Promise<Cursor> {
  const chain = adapter.chain;
  const height = Math.max(0, Math.min(heads.final, cursor.height - 1));
  const orphaned = await vanished(adapter, pendingTransfers(deps.db, chain));
  const block = await adapter.block(height);
  const next: Cursor = {
    chain,
    height,
    heightHash: block?.hash ?? '',
    heightTime: block?.timestamp ?? 0,
    finalHeight: heads.final,
  };
  const transitions = recompute(
    deps,
    orphaned.map((t) => ({ transfer: t, status: 'orphaned' as const })),
    heads.head,
  );
  recordScan(deps.db, {
    chain,
    transfers: [],
    statusChanges: orphaned.map((t) => ({ id: t.id, status: 'orphaned' as const })),
    transitions,
    cursor: next,
    now: deps.clock.now(),
  });
  deps.logger.warn(
    { chain, from: cursor.height, to: height, orphaned: orphaned.length },
    'reorganisation detected; rescanning',
  );
  return next;
}

/** Stored transfers whose block hash is no longer the canonical one at their height. */
async function vanished(adapter: ChainAdapter, transfers: StoredTransfer[]): Promise<StoredTransfer[]> {
  const heights = [...new Set(transfers.map((t) => t.blockNum))];
  const blocks = new Map<number, string | null>();
  await mapLimit(heights, 8, async (h) => {
    blocks.set(h, (await adapter.block(h))?.hash ?? null);
  });
  return transfers.filter((t) => blocks.get(t.blockNum) !== t.blockHash);
}

/** Order transitions after stored transfers change status. */
function recompute(
  deps: Pick2,
  changes: { transfer: StoredTransfer; status: 'final' | 'orphaned' }[],
  head: number,
  extraOrders: Order[] = [],
): OrderTransition[] {
  const overrides = new Map<string, Map<string, TransferFact>>();
  for (const c of changes) {
    if (!c.transfer.orderRef) continue;
    const m = overrides.get(c.transfer.orderRef) ?? new Map<string, TransferFact>();
    m.set(key(c.transfer), { ...c.transfer, status: c.status });
    overrides.set(c.transfer.orderRef, m);
  }
  const orders = ordersByIds(deps.db, [...overrides.keys()]);
  for (const o of extraOrders) if (!orders.has(o.id)) orders.set(o.id, o);
  const stored = transfersOfOrders(deps.db, [...orders.keys()]);
  return transitionsFor(orders.values(), stored, overrides, head);
}

/**
 * Promotes pending transfers in blocks that are now final (after checking their block is still the
 * canonical one; a vanished one is orphaned), and refreshes the confirmations of every collection
 * waiting for finality. Returns how many orders changed.
 */
async function settle(deps: Pick2, adapter: ChainAdapter, heads: ChainHeads): Promise<number> {
  const due = pendingTransfers(deps.db, adapter.chain).filter((t) => t.blockNum <= heads.final);
  const gone = new Set((await vanished(adapter, due)).map((t) => t.id));
  const changes = due.map((t) => ({
    transfer: t,
    status: gone.has(t.id) ? ('orphaned' as const) : ('final' as const),
  }));
  const transitions = recompute(
    deps,
    changes,
    heads.head,
    collectionsAwaitingFinality(deps.db, adapter.chain),
  );
  if (changes.length === 0 && transitions.length === 0) return 0;
  recordScan(deps.db, {
    chain: adapter.chain,
    transfers: [],
    statusChanges: changes.map((c) => ({ id: c.transfer.id, status: c.status })),
    transitions,
    cursor: null,
    now: deps.clock.now(),
  });
  for (const t of transitions) {
    if (t.patch.status !== t.order.status) {
      deps.logger.info(
        { chain: adapter.chain, orderId: t.order.orderId, from: t.order.status, to: t.patch.status },
        'collection moved',
      );
    }
  }
  return transitions.length;
}
