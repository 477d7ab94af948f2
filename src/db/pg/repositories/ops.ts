import { and, count, eq, gt, min, sql, sum } from 'drizzle-orm';
import pg from 'pg';
import { type CursorTimes, type ReorgStats, WRITE_PROBE_KEY } from '../../repositories/ops.ts';
import { type PgDb, pgTransaction } from '../client.ts';
import { chainCursors } from '../schema/chain-cursors.ts';
import { orders } from '../schema/orders.ts';
import { settings } from '../schema/settings.ts';
import { webhookAttempts } from '../schema/webhook-attempts.ts';
import { webhookEvents } from '../schema/webhook-events.ts';

// Readiness and metrics on PostgreSQL: the same functions as ../../repositories/ops.ts. All but
// probeWrite only read.

/** How long the write probe waits for another process's probe of the same row before it reports failure. */
const PROBE_LOCK_TIMEOUT = '2s';

/**
 * Proves the database takes writes: upserts one settings row in a transaction of its own (a real
 * write that must commit). Throws PostgreSQL's own error (a read-only server or standby, a full
 * disk), `busy` when the server cannot be reached, and a lock timeout rather than waiting on a row
 * another process holds for more than PROBE_LOCK_TIMEOUT. One upsert (a).
 */
export async function probeWrite(db: PgDb, now: number): Promise<void> {
  try {
    await pgTransaction(db, async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${PROBE_LOCK_TIMEOUT}'`));
      await tx
        .insert(settings)
        .values({ key: WRITE_PROBE_KEY, value: String(now) })
        .onConflictDoUpdate({ target: settings.key, set: { value: String(now) } });
    });
  } catch (error) {
    throw serverError(error);
  }
}

/**
 * The server's own error under drizzle's wrapper, whose message repeats the query and its
 * parameters: readiness shows the message, and PostgreSQL's says what is wrong in a line.
 */
function serverError(error: unknown): unknown {
  let found = error;
  while (!(found instanceof pg.DatabaseError) && found instanceof Error && found.cause) found = found.cause;
  return found instanceof pg.DatabaseError ? found : error;
}

/** Every chain's checkpoint with its write time. */
export async function cursorTimes(db: PgDb): Promise<CursorTimes[]> {
  return db
    .select({
      chain: chainCursors.chain,
      height: chainCursors.height,
      heightTime: chainCursors.heightTime,
      finalHeight: chainCursors.finalHeight,
      updatedAt: chainCursors.updatedAt,
    })
    .from(chainCursors);
}

/** Every chain's reorganisation counters, from the checkpoints. */
export async function reorgStats(db: PgDb): Promise<ReorgStats[]> {
  return db
    .select({
      chain: chainCursors.chain,
      count: chainCursors.reorgCount,
      lastDepth: chainCursors.lastReorgDepth,
      lastAt: chainCursors.lastReorgAt,
    })
    .from(chainCursors);
}

/** Orders counted by (chain, type, status): one pass over the (chain, type, status) index. */
export async function orderCounts(
  db: PgDb,
): Promise<{ chain: string; type: string; status: string; n: number }[]> {
  return db
    .select({ chain: orders.chain, type: orders.type, status: orders.status, n: count() })
    .from(orders)
    .groupBy(orders.chain, orders.type, orders.status);
}

/** Per chain, the creation time (epoch ms) of the oldest payout still waiting to be sent (INIT). */
export async function oldestQueuedPayouts(db: PgDb): Promise<{ chain: string; createdAt: number }[]> {
  const rows = await db
    .select({ chain: orders.chain, createdAt: min(orders.createdAt) })
    .from(orders)
    .where(and(eq(orders.type, 'PAYOUT'), eq(orders.status, 'INIT')))
    .groupBy(orders.chain);
  return rows.map((r) => ({ chain: r.chain, createdAt: Number(r.createdAt) }));
}

/** Webhook events counted by status (pending, delivered, failed), and the oldest pending one's creation. */
export async function webhookEventCounts(db: PgDb): Promise<{
  byStatus: { status: string; n: number }[];
  oldestPendingAt: number | null;
}> {
  const byStatus = await db
    .select({ status: webhookEvents.status, n: count() })
    .from(webhookEvents)
    .groupBy(webhookEvents.status);
  const [oldest] = await db
    .select({ at: min(webhookEvents.createdAt) })
    .from(webhookEvents)
    .where(eq(webhookEvents.status, 'pending'));
  return { byStatus, oldestPendingAt: oldest?.at == null ? null : Number(oldest.at) };
}

/**
 * Delivery attempts recorded after attempt row `afterId` (rows only ever get appended, with growing
 * ids): how many, how many a receiver accepted with a 2xx, and the last id seen. Lets a caller keep
 * running totals while reading only the new rows. The ids grow in commit order as long as one
 * writer appends at a time, which the single active webhook worker (its lease) ensures.
 */
export async function webhookAttemptsSince(
  db: PgDb,
  afterId: number,
): Promise<{ attempts: number; delivered: number; lastId: number }> {
  const [row] = await db
    .select({
      attempts: count(),
      delivered: sum(sql`case when ${webhookAttempts.statusCode} between 200 and 299 then 1 else 0 end`),
      lastId: sql<number | null>`max(${webhookAttempts.id})`.mapWith(Number),
    })
    .from(webhookAttempts)
    .where(gt(webhookAttempts.id, afterId));
  return {
    attempts: row?.attempts ?? 0,
    delivered: Number(row?.delivered ?? 0),
    lastId: row?.lastId ?? afterId,
  };
}
