import { and, count, eq, gt, min, sql, sum } from 'drizzle-orm';
import { type Db, writeTransaction } from '../client.ts';
import { chainCursors } from '../schema/chain-cursors.ts';
import { orders } from '../schema/orders.ts';
import { settings } from '../schema/settings.ts';
import { webhookAttempts } from '../schema/webhook-attempts.ts';
import { webhookEvents } from '../schema/webhook-events.ts';

/** The settings key the readiness probe writes. */
export const WRITE_PROBE_KEY = 'ops_write_probe';

/**
 * Proves the database takes writes: upserts one settings row (a real write, through the same lock
 * and WAL as every other). Throws what SQLite throws (read-only file, disk full), or `busy` when
 * another process holds the write lock (without waiting for it on the event loop).
 */
export function probeWrite(db: Db, now: number): void {
  writeTransaction(db, () =>
    db
      .insert(settings)
      .values({ key: WRITE_PROBE_KEY, value: String(now) })
      .onConflictDoUpdate({ target: settings.key, set: { value: String(now) } })
      .run(),
  );
}

/** A chain's checkpoint with the time the worker last wrote it. */
export interface CursorTimes {
  chain: string;
  height: number;
  /** Unix seconds of the block at `height`. */
  heightTime: number;
  finalHeight: number;
  /** Epoch ms of the worker's last write of this checkpoint. */
  updatedAt: number;
}

/** Every chain's checkpoint with its write time. */
export function cursorTimes(db: Db): CursorTimes[] {
  return db
    .select({
      chain: chainCursors.chain,
      height: chainCursors.height,
      heightTime: chainCursors.heightTime,
      finalHeight: chainCursors.finalHeight,
      updatedAt: chainCursors.updatedAt,
    })
    .from(chainCursors)
    .all();
}

/** A chain's reorganisations as its scanner counted them (since its checkpoint was created). */
export interface ReorgStats {
  chain: string;
  count: number;
  /** Blocks the last one replaced among those the scanner had read; null before the first. */
  lastDepth: number | null;
  /** Epoch ms when the last one was found; null before the first. */
  lastAt: number | null;
}

/** Every chain's reorganisation counters, from the checkpoints. */
export function reorgStats(db: Db): ReorgStats[] {
  return db
    .select({
      chain: chainCursors.chain,
      count: chainCursors.reorgCount,
      lastDepth: chainCursors.lastReorgDepth,
      lastAt: chainCursors.lastReorgAt,
    })
    .from(chainCursors)
    .all();
}

/** Orders counted by (chain, type, status): one pass over the (chain, type, status) index. */
export function orderCounts(db: Db): { chain: string; type: string; status: string; n: number }[] {
  return db
    .select({ chain: orders.chain, type: orders.type, status: orders.status, n: count() })
    .from(orders)
    .groupBy(orders.chain, orders.type, orders.status)
    .all();
}

/** Per chain, the creation time (epoch ms) of the oldest payout still waiting to be sent (INIT). */
export function oldestQueuedPayouts(db: Db): { chain: string; createdAt: number }[] {
  return db
    .select({ chain: orders.chain, createdAt: min(orders.createdAt) })
    .from(orders)
    .where(and(eq(orders.type, 'PAYOUT'), eq(orders.status, 'INIT')))
    .groupBy(orders.chain)
    .all()
    .map((r) => ({ chain: r.chain, createdAt: Number(r.createdAt) }));
}

/** Webhook events counted by status (pending, delivered, failed), and the oldest pending one's creation. */
export function webhookEventCounts(db: Db): {
  byStatus: { status: string; n: number }[];
  oldestPendingAt: number | null;
} {
  const byStatus = db
    .select({ status: webhookEvents.status, n: count() })
    .from(webhookEvents)
    .groupBy(webhookEvents.status)
    .all();
  const oldest = db
    .select({ at: min(webhookEvents.createdAt) })
    .from(webhookEvents)
    .where(eq(webhookEvents.status, 'pending'))
    .get();
  return { byStatus, oldestPendingAt: oldest?.at == null ? null : Number(oldest.at) };
}

/**
 * Delivery attempts recorded after attempt row `afterId` (rows only ever get appended, with growing
 * ids): how many, how many a receiver accepted with a 2xx, and the last id seen. Lets a caller keep
 * running totals while reading only the new rows.
 */
export function webhookAttemptsSince(
  db: Db,
  afterId: number,
): { attempts: number; delivered: number; lastId: number } {
  const row = db
    .select({
      attempts: count(),
      delivered: sum(sql`case when ${webhookAttempts.statusCode} between 200 and 299 then 1 else 0 end`),
      lastId: sql<number | null>`max(${webhookAttempts.id})`,
    })
    .from(webhookAttempts)
    .where(gt(webhookAttempts.id, afterId))
    .get();
  return {
    attempts: row?.attempts ?? 0,
    delivered: Number(row?.delivered ?? 0),
    lastId: row?.lastId ?? afterId,
  };
}
