import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { TransferFact } from '../../domain/collection-progress.ts';
import type { Db } from '../client.ts';
import { chainBlocks } from '../schema/chain-blocks.ts';
import { chainCursors } from '../schema/chain-cursors.ts';
import { chainTransfers } from '../schema/chain-transfers.ts';

export interface Cursor {
  chain: string;
  height: number;
  heightHash: string;
  heightTime: number;
  finalHeight: number;
}

/** A transfer row to write (insert, or update the block it is in when it was not final yet). */
export interface TransferWrite {
  id: string;
  chain: string;
  txid: string;
  eventKey: string;
  blockNum: number;
  blockHash: string;
  blockTimestamp: number;
  fromAddress: string;
  toAddress: string;
  tokenContract: string | null;
  symbol: string;
  amountBase: bigint;
  status: 'pending' | 'final' | 'failed';
  orderRef: string | null;
  unattributedReason: string | null;
}

/** A stored transfer with the fact view the order state is computed from. */
export interface StoredTransfer extends TransferFact {
  id: string;
  chain: string;
  blockHash: string;
  orderRef: string | null;
  contract: string | null;
  symbol: string;
  unattributedReason: string | null;
  createdAt: number;
}

type TransferRow = typeof chainTransfers.$inferSelect;

function toStored(r: TransferRow): StoredTransfer {
  return {
    id: r.id,
    chain: r.chain,
    txid: r.txid,
    eventKey: r.eventKey,
    blockNum: r.blockNum,
    blockHash: r.blockHash,
    timestamp: r.blockTimestamp,
    from: r.fromAddress,
    to: r.toAddress,
    amountBase: BigInt(r.amountBase),
    status: r.status,
    orderRef: r.orderRef,
    contract: r.tokenContract,
    symbol: r.symbol,
    unattributedReason: r.unattributedReason,
    createdAt: r.createdAt,
  };
}

/** A block the scanner read before it was final: its height and hash. */
export interface BlockHash {
  height: number;
  hash: string;
}

const CURSOR_COLUMNS = {
  chain: chainCursors.chain,
  height: chainCursors.height,
  heightHash: chainCursors.heightHash,
  heightTime: chainCursors.heightTime,
  finalHeight: chainCursors.finalHeight,
};

/** The chain's scan checkpoint, or null before its first scan. */
export function getCursor(db: Db, chain: string): Cursor | null {
  return db.select(CURSOR_COLUMNS).from(chainCursors).where(eq(chainCursors.chain, chain)).get() ?? null;
}

/** Every chain's checkpoint. */
export function listCursors(db: Db): Cursor[] {
  return db.select(CURSOR_COLUMNS).from(chainCursors).all();
}

/**
 * The hashes of the blocks the checkpoint read while they were not final yet (from the final height
 * recorded with it up to its own height), lowest first.
 */
export function unfinalBlocks(db: Db, chain: string): BlockHash[] {
  return db
    .select({ height: chainBlocks.height, hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(eq(chainBlocks.chain, chain))
    .orderBy(asc(chainBlocks.height))
    .all();
}

/** Stored transfers attributed to the given orders, grouped by order. */
export function transfersOfOrders(db: Db, orderRefs: string[]): Map<string, StoredTransfer[]> {
  const out = new Map<string, StoredTransfer[]>();
  for (let i = 0; i < orderRefs.length; i += 500) {
    const rows = db
      .select()
      .from(chainTransfers)
      .where(inArray(chainTransfers.orderRef, orderRefs.slice(i, i + 500)))
      .all();
    for (const r of rows) {
      const list = out.get(r.orderRef as string) ?? [];
      list.push(toStored(r));
      out.set(r.orderRef as string, list);
    }
  }
  return out;
}

/** Stored transfers of a chain that belong to the given transactions. */
export function transfersOfTransactions(db: Db, chain: string, txids: string[]): StoredTransfer[] {
  const out: StoredTransfer[] = [];
  for (let i = 0; i < txids.length; i += 500) {
    const rows = db
      .select()
      .from(chainTransfers)
      .where(and(eq(chainTransfers.chain, chain), inArray(chainTransfers.txid, txids.slice(i, i + 500))))
      .all();
    out.push(...rows.map(toStored));
  }
  return out;
}

/** Transfers on a chain that are in a block but not final yet. */
export function pendingTransfers(db: Db, chain: string): StoredTransfer[] {
  return db
    .select()
    .from(chainTransfers)
    .where(and(eq(chainTransfers.chain, chain), eq(chainTransfers.status, 'pending')))
    .orderBy(asc(chainTransfers.blockNum))
    .all()
    .map(toStored);
}

/** Transfers no order took (late, wrong token, no order), newest last. */
export function unattributedTransfers(db: Db, chain?: string): StoredTransfer[] {
  return db
    .select()
    .from(chainTransfers)
    .where(and(isNull(chainTransfers.orderRef), chain ? eq(chainTransfers.chain, chain) : undefined))
    .orderBy(asc(chainTransfers.createdAt))
    .all()
    .map(toStored);
}

/** Every transfer of a chain (tests and operators). */
export function transfersOfChain(db: Db, chain: string): StoredTransfer[] {
  return db
    .select()
    .from(chainTransfers)
    .where(eq(chainTransfers.chain, chain))
    .orderBy(asc(chainTransfers.blockNum))
    .all()
    .map(toStored);
}
