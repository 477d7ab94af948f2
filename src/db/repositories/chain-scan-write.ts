import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';
import { chainBlocks } from '../schema/chain-blocks.ts';
import { chainCursors } from '../schema/chain-cursors.ts';
import { chainTransfers } from '../schema/chain-transfers.ts';
import { type BlockHash, type Cursor, getCursor, type TransferWrite } from './chain-scan.ts';
import { applyOrderTransitions, type OrderTransition } from './orders.ts';

// A scan step's write and the checkpoint's reset (the reads of scanning are in chain-scan.ts).

const TRANSFER_COLUMNS = [
  'id',
  'chain',
  'txid',
  'eventKey',
  'blockNum',
  'blockHash',
  'blockTimestamp',
  'fromAddress',
  'toAddress',
  'tokenContract',
  'symbol',
  'amountBase',
  'status',
  'orderRef',
  'unattributedReason',
  'createdAt',
  'updatedAt',
] as const;

/** Insert a transfer, or move it to the block it is in now unless it is already final. */
const upsertTransfer = (db: Db) =>
  prepared(db, 'chainTransfers.upsert', () =>
    db
      .insert(chainTransfers)
      .values(Object.fromEntries(TRANSFER_COLUMNS.map((c) => [c, sql.placeholder(c)])) as never)
      .onConflictDoUpdate({
        target: [chainTransfers.chain, chainTransfers.txid, chainTransfers.eventKey],
        set: {
          blockNum: sql`excluded.block_num`,
          blockHash: sql`excluded.block_hash`,
          blockTimestamp: sql`excluded.block_timestamp`,
          status: sql`excluded.status`,
          updatedAt: sql`excluded.updated_at`,
        },
        setWhere: sql`${chainTransfers.status} <> 'final'`,
      })
      .prepare(),
  );

/**
 * Writes one scan step atomically: new or moved transfers (a transfer already final is never
 * touched), status changes of stored transfers (final, orphaned), order transitions with their
 * webhook events, and the checkpoint with the hashes of the blocks it read before they were final
 * (`blocks`; kept from the checkpoint's final height up to its height, the rest dropped). `reorg`
 * counts a reorganisation found. Nothing is written if any part fails (e.g. an order changed
 * meanwhile). `base` is the checkpoint the step continues from (null: none yet): when given, the
 * stored checkpoint must still be exactly it, else the step throws state_conflict having written
 * nothing (another worker moved the checkpoint: a step finished late by a former lease holder).
 */
export function recordScan(
  db: Db,
  input: {
    chain: string;
    transfers: TransferWrite[];
    statusChanges: { id: string; status: 'final' | 'orphaned' }[];
    transitions: OrderTransition[];
    cursor: Omit<Cursor, 'chain'> | null;
    base?: Omit<Cursor, 'chain'> | null;
    blocks?: BlockHash[];
    reorg?: { depth: number } | null;
    now: number;
  },
): void {
  writeTransaction(db, () => {
    if (input.base !== undefined && !isStoredCheckpoint(db, input.chain, input.base)) {
      throw new AppError(
        'state_conflict',
        'The chain checkpoint moved since this scan step read it (another worker wrote it); the step is dropped.',
      );
    }
    const upsert = upsertTransfer(db);
    for (const t of input.transfers) {
      upsert.run({ ...t, amountBase: t.amountBase.toString(), createdAt: input.now, updatedAt: input.now });
    }
    for (const c of input.statusChanges) {
      db.update(chainTransfers)
        .set({ status: c.status, updatedAt: input.now })
        .where(and(eq(chainTransfers.id, c.id), sql`${chainTransfers.status} <> 'final'`))
        .run();
    }
    applyOrderTransitions(db, input.transitions, input.now);
    if (input.cursor) {
      const { height, heightHash, heightTime, finalHeight } = input.cursor;
      const cursor = { height, heightHash, heightTime, finalHeight, updatedAt: input.now };
      db.insert(chainCursors)
        .values({ chain: input.chain, ...cursor })
        .onConflictDoUpdate({ target: chainCursors.chain, set: cursor })
        .run();
      db.delete(chainBlocks)
        .where(
          and(
            eq(chainBlocks.chain, input.chain),
            or(lt(chainBlocks.height, finalHeight), gt(chainBlocks.height, height)),
          ),
        )
        .run();
      for (const b of input.blocks ?? []) {
        if (b.height < finalHeight || b.height > height) continue;
        db.insert(chainBlocks)
          .values({ chain: input.chain, height: b.height, hash: b.hash })
          .onConflictDoUpdate({ target: [chainBlocks.chain, chainBlocks.height], set: { hash: b.hash } })
          .run();
      }
    }
    if (input.reorg) {
      db.update(chainCursors)
        .set({
          reorgCount: sql`${chainCursors.reorgCount} + 1`,
          lastReorgDepth: input.reorg.depth,
          lastReorgAt: input.now,
        })
        .where(eq(chainCursors.chain, input.chain))
        .run();
    }
  });
}

/** Whether the stored checkpoint of `chain` is `base` (height, its hash and the final height), or absent for null. */
function isStoredCheckpoint(db: Db, chain: string, base: Omit<Cursor, 'chain'> | null): boolean {
  const stored = getCursor(db, chain);
  if (base === null || stored === null) return base === stored;
  return (
    stored.height === base.height &&
    stored.heightHash === base.heightHash &&
    stored.finalHeight === base.finalHeight
  );
}

/** Forgets a chain's checkpoint, so its next scan starts afresh (a devnet chain that restarted empty). */
export function resetCursor(db: Db, chain: string): void {
  writeTransaction(db, () => {
    db.delete(chainCursors).where(eq(chainCursors.chain, chain)).run();
    db.delete(chainBlocks).where(eq(chainBlocks.chain, chain)).run();
  });
}
