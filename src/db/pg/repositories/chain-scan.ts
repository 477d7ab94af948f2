import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { BlockHash, Cursor, StoredTransfer } from '../../repositories/chain-scan.ts';
import type { PgExecutor } from '../client.ts';
import { chainBlocks } from '../schema/chain-blocks.ts';
import { chainCursors } from '../schema/chain-cursors.ts';
import { chainTransfers } from '../schema/chain-transfers.ts';

// The scanners' reads. The scan step's write (recordScan, resetCursor) is in chain-scan-write.ts.

type TransferRow = typeof chainTransfers.$inferSelect;

/** A stored transfer row in the fact view the order state is computed from. */
export function toStored(r: TransferRow): StoredTransfer {
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

const CURSOR_COLUMNS = {
  chain: chainCursors.chain,
  height: chainCursors.height,
  heightHash: chainCursors.heightHash,
  heightTime: chainCursors.heightTime,
  finalHeight: chainCursors.finalHeight,
};

/** Transfers in chain order (SQLite's lists come in insertion order, which is the scanners' chain order). */
const CHAIN_ORDER = [asc(chainTransfers.blockNum), asc(chainTransfers.txid), asc(chainTransfers.eventKey)];

/** Ids per query, so a long list never meets PostgreSQL's limit of bind parameters. */
const CHUNK = 500;

/** The chain's scan checkpoint, or null before its first scan. */
export async function getCursor(ex: PgExecutor, chain: string): Promise<Cursor | null> {
  const rows = await ex.select(CURSOR_COLUMNS).from(chainCursors).where(eq(chainCursors.chain, chain));
  return rows[0] ?? null;
}

/** Every chain's checkpoint. */
export async function listCursors(ex: PgExecutor): Promise<Cursor[]> {
  return ex.select(CURSOR_COLUMNS).from(chainCursors).orderBy(asc(chainCursors.chain));
}

/**
 * The hashes of the blocks the checkpoint read while they were not final yet (from the final height
 * recorded with it up to its own height), lowest first.
 */
export async function unfinalBlocks(ex: PgExecutor, chain: string): Promise<BlockHash[]> {
  return ex
    .select({ height: chainBlocks.height, hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(eq(chainBlocks.chain, chain))
    .orderBy(asc(chainBlocks.height));
}

/** Stored transfers attributed to the given orders, grouped by order. */
export async function transfersOfOrders(
  ex: PgExecutor,
  orderRefs: string[],
): Promise<Map<string, StoredTransfer[]>> {
  const out = new Map<string, StoredTransfer[]>();
  for (let i = 0; i < orderRefs.length; i += CHUNK) {
    const rows = await ex
      .select()
      .from(chainTransfers)
      .where(inArray(chainTransfers.orderRef, orderRefs.slice(i, i + CHUNK)))
      .orderBy(...CHAIN_ORDER);
    for (const r of rows) {
      const list = out.get(r.orderRef as string) ?? [];
      list.push(toStored(r));
      out.set(r.orderRef as string, list);
    }
  }
  return out;
}

/** Stored transfers of a chain that belong to the given transactions. */
export async function transfersOfTransactions(
  ex: PgExecutor,
  chain: string,
  txids: string[],
): Promise<StoredTransfer[]> {
  const out: StoredTransfer[] = [];
  for (let i = 0; i < txids.length; i += CHUNK) {
    const rows = await ex
      .select()
      .from(chainTransfers)
      .where(and(eq(chainTransfers.chain, chain), inArray(chainTransfers.txid, txids.slice(i, i + CHUNK))))
      .orderBy(...CHAIN_ORDER);
    out.push(...rows.map(toStored));
  }
  return out;
}

/** Transfers on a chain that are in a block but not final yet. */
export async function pendingTransfers(ex: PgExecutor, chain: string): Promise<StoredTransfer[]> {
  const rows = await ex
    .select()
    .from(chainTransfers)
    .where(and(eq(chainTransfers.chain, chain), eq(chainTransfers.status, 'pending')))
    .orderBy(...CHAIN_ORDER);
  return rows.map(toStored);
}

/** Transfers no order took (late, wrong token, no order), newest last. */
export async function unattributedTransfers(ex: PgExecutor, chain?: string): Promise<StoredTransfer[]> {
  const rows = await ex
    .select()
    .from(chainTransfers)
    .where(and(isNull(chainTransfers.orderRef), chain ? eq(chainTransfers.chain, chain) : undefined))
    .orderBy(asc(chainTransfers.createdAt), ...CHAIN_ORDER);
  return rows.map(toStored);
}

/** Every transfer of a chain (tests and operators). */
export async function transfersOfChain(ex: PgExecutor, chain: string): Promise<StoredTransfer[]> {
  const rows = await ex
    .select()
    .from(chainTransfers)
    .where(eq(chainTransfers.chain, chain))
    .orderBy(...CHAIN_ORDER);
  return rows.map(toStored);
}
