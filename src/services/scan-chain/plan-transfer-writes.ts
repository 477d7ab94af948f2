import type { ChainHeads, ObservedTransfer } from '../../chains/port.ts';
import type { OrderTransition, StoredTransfer, TransferWrite } from '../../db/store.ts';
import { collectionProgress, type TransferFact } from '../../domain/collection-progress.ts';
import { isFinalStatus, type Order } from '../../domain/order.ts';
import { newId } from '../../lib/ids.ts';
import type { Deps } from '../deps.ts';
import type { TokenRef } from '../payout-funding.ts';
import { attribute, sameContract } from './attribute.ts';

/** What one atomic scan write holds: transfer rows, status changes, and the orders they move. */
export interface TransferPlan {
  writes: TransferWrite[];
  statusChanges: { id: string; status: 'final' | 'orphaned' }[];
  transitions: OrderTransition[];
  /** Every collection whose transfers the plan adds, moves or changes (moved or not). */
  touched: Order[];
}

/** A stored transfer changing status, as the caller found it. */
export interface StatusChange {
  transfer: StoredTransfer;
  status: 'final' | 'orphaned';
}

/** The natural key of a transfer: its transaction and its place in it. */
export function transferKey(t: { txid: string; eventKey: string }): string {
  return `${t.txid}|${t.eventKey}`;
}

/**
 * Turns what the chain shows now into one atomic write: `observed` transfers (as the canonical chain
 * has them: new, or moved to another block) become rows attributed to the collection at their
 * address or left unattributed with a reason; `changes` promote or orphan stored rows. A transaction
 * is in one block of the canonical chain, so a stored row of an observed transaction in another
 * block that the observation does not renew (its log index changed with the block) is orphaned
 * here, in the same write, and never counts twice. A transfer already final is never touched, and an
 * observation repeating a final transfer from another block is not recorded again (the chain rewrote
 * blocks Kassa took as final: logged as an error). Every collection touched, and `extraOrders`, is
 * recomputed from its transfers. Reads the database only.
 */
export async function planTransferWrites(
  deps: Pick<Deps, 'db' | 'logger'>,
  chain: string,
  tokens: TokenRef[],
  heads: ChainHeads,
  input: { observed: ObservedTransfer[]; changes?: StatusChange[]; extraOrders?: Order[] },
): Promise<TransferPlan> {
  const { db } = deps;
  const sameTx = await db.transfersOfTransactions(chain, [...new Set(input.observed.map((t) => t.txid))]);
  const storedByKey = new Map(sameTx.map((t) => [transferKey(t), t]));
  const blockOfTx = new Map(input.observed.map((t) => [t.txid, t.blockHash]));

  const observed = input.observed.filter((t) => {
    const same = storedByKey.get(transferKey(t));
    if (same?.status === 'final') return false; // final: never moved, never counted again
    const finalElsewhere = sameTx.find(
      (s) =>
        s.status === 'final' &&
        s.txid === t.txid &&
        s.blockHash !== t.blockHash &&
        s.to === t.to &&
        s.amountBase === t.amountBase &&
        sameContract(s.contract, t.contract),
    );
    if (finalElsewhere) {
      deps.logger.error(
        { chain, txid: t.txid, finalIn: finalElsewhere.blockNum, nowIn: t.blockNum },
        'a transfer recorded as final reappeared in another block: the chain rewrote blocks Kassa took as final; it is not credited twice',
      );
      return false;
    }
    return true;
  });
  const observedKeys = new Set(observed.map(transferKey));

  // Status changes asked by the caller, minus orphanings that an observation renews (moved block,
  // same key), plus stored rows of observed transactions left behind in another block.
  const changes = new Map<string, StatusChange>();
  for (const c of input.changes ?? []) {
    if (c.status === 'orphaned' && observedKeys.has(transferKey(c.transfer))) continue;
    changes.set(c.transfer.id, c);
  }
  for (const s of sameTx) {
    if (s.status === 'final' || s.status === 'orphaned' || observedKeys.has(transferKey(s))) continue;
    if (s.blockHash !== blockOfTx.get(s.txid)) changes.set(s.id, { transfer: s, status: 'orphaned' });
  }

  // Every collection involved, and its stored transfers, read once.
  const byAddress = await db.collectionsByAddress(chain, [...new Set(observed.map((t) => t.to))]);
  const orders = new Map([...byAddress.values()].map((o) => [o.id, o]));
  const refs = new Set([...changes.values()].flatMap((c) => c.transfer.orderRef ?? []));
  const elsewhere = await db.ordersByIds([...refs].filter((id) => !orders.has(id)));
  for (const o of elsewhere.values()) orders.set(o.id, o);
  for (const o of input.extraOrders ?? []) if (!orders.has(o.id)) orders.set(o.id, o);
  const stored = await db.transfersOfOrders([...orders.keys()]);
  const credited = new Set([...stored.values()].flat().map(transferKey));
  const overrides = new Map<string, Map<string, TransferFact>>();
  const override = (orderRef: string, fact: TransferFact) => {
    const facts = overrides.get(orderRef) ?? new Map<string, TransferFact>();
    facts.set(transferKey(fact), fact);
    overrides.set(orderRef, facts);
  };

  const writes: TransferWrite[] = [];
  for (const t of observed) {
    const order = byAddress.get(t.to);
    const { status, orderRef, reason } = attribute(t, order, {
      alreadyCredited: credited.has(transferKey(t)),
      finalHeight: heads.final,
    });
    const token = tokens.find((x) => sameContract(x.contract, t.contract));
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
      orderRef,
      unattributedReason: reason,
    });
    if (orderRef) {
      override(orderRef, { ...t, status });
    } else if (reason && !storedByKey.has(transferKey(t))) {
      deps.logger.warn(
        { chain, txid: t.txid, to: t.to, reason, amount: t.amountBase.toString() },
        'unattributed deposit',
      );
    }
  }
  for (const c of changes.values()) {
    if (c.transfer.orderRef) override(c.transfer.orderRef, { ...c.transfer, status: c.status });
  }

  const touched = [...overrides.keys()].flatMap((id) => orders.get(id) ?? []);
  const recomputed = new Map(touched.map((o) => [o.id, o]));
  for (const o of input.extraOrders ?? []) recomputed.set(o.id, orders.get(o.id) ?? o);
  const transitions = transitionsFor(recomputed.values(), stored, overrides, heads.head);
  return {
    writes,
    statusChanges: [...changes.values()].map((c) => ({ id: c.transfer.id, status: c.status })),
    transitions,
    touched,
  };
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
    for (const f of stored.get(order.id) ?? []) facts.set(transferKey(f), f);
    for (const [k, f] of overrides.get(order.id) ?? []) facts.set(k, f);
    const change = collectionProgress(order, [...facts.values()], head);
    if (change) out.push({ order, patch: change });
  }
  return out;
}
