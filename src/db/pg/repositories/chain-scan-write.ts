import { and, eq, gt, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import type { BlockHash, Cursor, TransferWrite } from '../../repositories/chain-scan.ts';
import type { OrderTransition } from '../../repositories/orders.ts';
import { type PgDb, type PgTx, pgTransaction } from '../client.ts';
import { chainBlocks } from '../schema/chain-blocks.ts';
import { chainCursors } from '../schema/chain-cursors.ts';
import { chainTransfers } from '../schema/chain-transfers.ts';
import { applyOrderTransitions } from './orders.ts';

/** Namespace of the transaction-scoped advisory locks on one chain's checkpoint. */
const CHECKPOINT_LOCK = 0x4b53; // 'KS'
/** Transfers per INSERT (17 parameters each, far below PostgreSQL's 65535). */
const CHUNK = 1000;

/**
 * Writes one scan step atomically: new or moved transfers (a transfer already final is never
 * touched), status changes of stored transfers (final, orphaned), order transitions with their
 * webhook events, and the checkpoint with the hashes of the blocks it read before they were final
 * (`blocks`; kept from the checkpoint's final height up to its height, the rest dropped). `reorg`
 * counts a reorganisation found. Nothing is written if any part fails (e.g. an order changed
 * meanwhile). `base` is the checkpoint the step continues from (null: none yet): when given, the
 * stored checkpoint must still be exactly it, else the step throws state_conflict having written
 * nothing (another worker moved the checkpoint: a step finished late by a former lease holder).
 *
 * Kept correct by (b) locks in one read-committed transaction: the chain's checkpoint lock makes two
 * steps of one chain (a worker that lost its lease and the one that took over) apply one after the
 * other, whole, so they can neither interleave their checkpoint and block hashes nor deadlock on
 * transfers both write; transfers are upserts on their natural key whose update skips a final row
 * (a); each transition is guarded by the order's status (orders.ts), and a miss rolls back the whole
 * step, checkpoint included. A checkpoint may move back (a reorganisation rewinds it), so the last
 * step to commit sets it, as on SQLite.
 */
export function recordScan(
  db: PgDb,
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
): Promise<void> {
  return pgTransaction(db, async (tx) => {
    await lockCheckpoint(tx, input.chain);
    // Read under the checkpoint lock, so no other step can move it before this one commits.
    if (input.base !== undefined && !(await isStoredCheckpoint(tx, input.chain, input.base))) {
      throw new AppError(
        'state_conflict',
        'The chain checkpoint moved since this scan step read it (another worker wrote it); the step is dropped.',
      );
    }
    const transfers = mergeSameKey(input.transfers);
    for (let i = 0; i < transfers.length; i += CHUNK) {
      await upsertTransfers(tx, transfers.slice(i, i + CHUNK), input.now);
    }
    // Orphaned first, then final: a transfer listed with both ends final, as one by one on SQLite.
    for (const status of ['orphaned', 'final'] as const) {
      const ids = input.statusChanges.filter((c) => c.status === status).map((c) => c.id);
      if (ids.length === 0) continue;
      await tx
        .update(chainTransfers)
        .set({ status, updatedAt: input.now })
        .where(and(inArray(chainTransfers.id, ids), ne(chainTransfers.status, 'final')));
    }
    await applyOrderTransitions(tx, input.transitions, input.now);
    if (input.cursor) await writeCheckpoint(tx, input.chain, input.cursor, input.blocks ?? [], input.now);
    if (input.reorg) {
      await tx
        .update(chainCursors)
        .set({
          reorgCount: sql`${chainCursors.reorgCount} + 1`,
          lastReorgDepth: input.reorg.depth,
          lastReorgAt: input.now,
        })
        .where(eq(chainCursors.chain, input.chain));
    }
  });
}

/** Forgets a chain's checkpoint, so its next scan starts afresh (a devnet chain that restarted empty). */
export function resetCursor(db: PgDb, chain: string): Promise<void> {
  return pgTransaction(db, async (tx) => {
    await lockCheckpoint(tx, chain);
    await tx.delete(chainCursors).where(eq(chainCursors.chain, chain));
    await tx.delete(chainBlocks).where(eq(chainBlocks.chain, chain));
  });
}

/** Whether the stored checkpoint of `chain` is `base` (height, its hash and the final height), or absent for null. */
async function isStoredCheckpoint(
  tx: PgTx,
  chain: string,
  base: Omit<Cursor, 'chain'> | null,
): Promise<boolean> {
  const [stored] = await tx
    .select({
      height: chainCursors.height,
      heightHash: chainCursors.heightHash,
      finalHeight: chainCursors.finalHeight,
    })
    .from(chainCursors)
    .where(eq(chainCursors.chain, chain));
  if (base === null || stored === undefined) return base === null && stored === undefined;
  return (
    stored.height === base.height &&
    stored.heightHash === base.heightHash &&
    stored.finalHeight === base.finalHeight
  );
}

/** Waits for any other write of `chain`'s checkpoint, and keeps later ones waiting until this transaction ends. */
async function lockCheckpoint(tx: PgTx, chain: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHECKPOINT_LOCK}, hashtext(${chain}))`);
}

/**
 * One write per natural key (chain, txid, event key), as SQLite's one-by-one upserts leave it: the
 * first sighting's row, moved to the block of each later one unless it was final (one INSERT … ON
 * CONFLICT may not touch a row twice).
 */
function mergeSameKey(transfers: TransferWrite[]): TransferWrite[] {
  const byKey = new Map<string, TransferWrite>();
  for (const t of transfers) {
    const key = JSON.stringify([t.chain, t.txid, t.eventKey]);
    const first = byKey.get(key);
    if (!first) byKey.set(key, t);
    else if (first.status !== 'final') {
      const { blockNum, blockHash, blockTimestamp, status } = t;
      byKey.set(key, { ...first, blockNum, blockHash, blockTimestamp, status });
    }
  }
  return [...byKey.values()];
}

/** Inserts transfers, or moves a stored one to the block it is in now unless it is already final. */
async function upsertTransfers(tx: PgTx, transfers: TransferWrite[], now: number): Promise<void> {
  if (transfers.length === 0) return;
  await tx
    .insert(chainTransfers)
    .values(
      transfers.map((t) => ({ ...t, amountBase: t.amountBase.toString(), createdAt: now, updatedAt: now })),
    )
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
    });
}

/** The checkpoint, and the hashes of its blocks not final yet (the rest dropped). */
async function writeCheckpoint(
  tx: PgTx,
  chain: string,
  next: Omit<Cursor, 'chain'>,
  blocks: BlockHash[],
  now: number,
): Promise<void> {
  const { height, heightHash, heightTime, finalHeight } = next;
  const cursor = { height, heightHash, heightTime, finalHeight, updatedAt: now };
  await tx
    .insert(chainCursors)
    .values({ chain, ...cursor })
    .onConflictDoUpdate({ target: chainCursors.chain, set: cursor });
  await tx
    .delete(chainBlocks)
    .where(
      and(
        eq(chainBlocks.chain, chain),
        or(lt(chainBlocks.height, finalHeight), gt(chainBlocks.height, height)),
      ),
    );
  // the last hash given for a height wins, as one upsert after the other does on SQLite
  const kept = new Map<number, string>();
  for (const b of blocks) if (b.height >= finalHeight && b.height <= height) kept.set(b.height, b.hash);
  if (kept.size === 0) return;
  await tx
    .insert(chainBlocks)
    .values([...kept].map(([h, hash]) => ({ chain, height: h, hash })))
    .onConflictDoUpdate({
      target: [chainBlocks.chain, chainBlocks.height],
      set: { hash: sql`excluded.hash` },
    });
}
