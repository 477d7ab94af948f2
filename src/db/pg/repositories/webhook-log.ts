import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { WebhookAttempt, WebhookEvent } from '../../repositories/webhook-events.ts';
import {
  DRIVER_CAP,
  type ListedWebhookEvent,
  SCAN_WINDOW,
  type WebhookLogEvent,
  type WebhookLogFilter,
} from '../../repositories/webhook-log.ts';
import type { PgExecutor } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { webhookAttempts } from '../schema/webhook-attempts.ts';
import { webhookEvents } from '../schema/webhook-events.ts';

// The webhook log on PostgreSQL (reads only): the same functions as ../../repositories/webhook-log.ts,
// with the same bounds on the work of one page. PostgreSQL has no INDEXED BY: the planner picks the
// status, (merchant, time) or creation-time index from the same queries.

type IdRow = { id: string; created_at: number };

/** Rows of a raw query: int8 comes back as text there (drizzle's per-query parsers), read as a number. */
const idRows = (result: { rows: { id: string; created_at: number | string }[] }): IdRow[] =>
  result.rows.map((r) => ({ id: r.id, created_at: Number(r.created_at) }));

const whereOf = (parts: SQL[]) => (parts.length > 0 ? sql`WHERE ${sql.join(parts, sql` AND `)}` : sql``);

/**
 * One page of webhook events, newest first (creation time, then id), with bounded work: the
 * failed or pending ones through the status index when they are few, one merchant's through its
 * (merchant, time) index, anything else by walking the creation-time index over at most
 * SCAN_WINDOW events (then `partial` is true and `next` continues where it stopped).
 */
export async function listWebhookEventsPage(
  ex: PgExecutor,
  input: { filter: WebhookLogFilter; after: { createdAt: number; id: string } | null; limit: number },
): Promise<{ events: WebhookLogEvent[]; next: { createdAt: number; id: string } | null; partial: boolean }> {
  const { filter } = input;
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(sql`status = ${filter.status}`);
  if (filter.merchantId) conditions.push(sql`merchant_id = ${filter.merchantId}`);
  if (filter.notifyType) conditions.push(sql`notify_type = ${filter.notifyType}`);
  const keyset = input.after
    ? sql`(created_at, id) < (${input.after.createdAt}::bigint, ${input.after.id})`
    : null;
  const take = Math.max(1, Math.floor(input.limit)) + 1;

  let narrow = false;
  if (filter.status) {
    const counted = await ex.execute<{ n: number }>(
      sql`SELECT count(*) AS n FROM (SELECT 1 FROM webhook_events WHERE status = ${filter.status}
          LIMIT ${DRIVER_CAP + 1}) AS s`,
    );
    narrow = Number(counted.rows[0]?.n ?? 0) <= DRIVER_CAP;
  }
  if (!narrow && filter.merchantId) narrow = true;

  let ids: IdRow[];
  let boundary: IdRow | undefined;
  const range = whereOf(keyset ? [keyset] : []);
  if (narrow) {
    const found = await ex.execute<IdRow>(
      sql`SELECT id, created_at FROM webhook_events ${whereOf([...conditions, ...(keyset ? [keyset] : [])])}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
    );
    ids = idRows(found);
  } else {
    const found = await ex.execute<IdRow>(
      sql`SELECT id, created_at FROM (SELECT id, created_at, status, merchant_id, notify_type
            FROM webhook_events ${range} ORDER BY created_at DESC, id DESC LIMIT ${SCAN_WINDOW}) AS w
          ${whereOf(conditions)} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
    );
    ids = idRows(found);
    if (ids.length < take) {
      const edge = await ex.execute<IdRow>(
        sql`SELECT id, created_at FROM webhook_events ${range}
            ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${SCAN_WINDOW - 1}`,
      );
      boundary = idRows(edge)[0];
    }
  }
  const shown = ids.slice(0, take - 1);
  const events = await loadEvents(
    ex,
    shown.map((r) => r.id),
  );
  const last = shown[shown.length - 1];
  if (boundary) return { events, next: { createdAt: boundary.created_at, id: boundary.id }, partial: true };
  return {
    events,
    next: ids.length === take && last ? { createdAt: last.created_at, id: last.id } : null,
    partial: false,
  };
}

const LOG_COLUMNS = {
  id: webhookEvents.id,
  merchantId: webhookEvents.merchantId,
  orderRef: webhookEvents.orderRef,
  orderVersion: webhookEvents.orderVersion,
  notifyType: webhookEvents.notifyType,
  status: webhookEvents.status,
  attempts: webhookEvents.attempts,
  nextAttemptAt: webhookEvents.nextAttemptAt,
  retryUntil: webhookEvents.retryUntil,
  lastError: webhookEvents.lastError,
  createdAt: webhookEvents.createdAt,
  deliveredAt: webhookEvents.deliveredAt,
  orderId: orders.orderId,
};

async function loadEvents(ex: PgExecutor, ids: string[]): Promise<WebhookLogEvent[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select(LOG_COLUMNS)
    .from(webhookEvents)
    .leftJoin(orders, eq(orders.id, webhookEvents.orderRef))
    .where(inArray(webhookEvents.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((e): e is WebhookLogEvent => e !== undefined);
}

/** The latest attempt of each of the given events (events never tried are absent). */
export async function lastAttemptsOf(
  ex: PgExecutor,
  eventIds: string[],
): Promise<Map<string, WebhookAttempt>> {
  const out = new Map<string, WebhookAttempt>();
  if (eventIds.length === 0) return out;
  const rows = await ex
    .selectDistinctOn([webhookAttempts.eventId], ATTEMPT_COLUMNS)
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.eventId, eventIds))
    .orderBy(webhookAttempts.eventId, desc(webhookAttempts.id));
  for (const r of rows) out.set(r.eventId, r);
  return out;
}

/** Events that need the operator's eye: pending (queued or retrying) and failed, counted on the status index. */
export async function webhookAttentionCounts(ex: PgExecutor): Promise<{ pending: number; failed: number }> {
  const rows = await ex
    .select({ status: webhookEvents.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(webhookEvents)
    .where(inArray(webhookEvents.status, ['pending', 'failed']))
    .groupBy(webhookEvents.status);
  const of = (s: string) => rows.find((r) => r.status === s)?.n ?? 0;
  return { pending: of('pending'), failed: of('failed') };
}

const ATTEMPT_COLUMNS = {
  eventId: webhookAttempts.eventId,
  attemptedAt: webhookAttempts.attemptedAt,
  statusCode: webhookAttempts.statusCode,
  latencyMs: webhookAttempts.latencyMs,
  error: webhookAttempts.error,
};

/** The attempts of one event, oldest first. */
export async function listWebhookAttempts(ex: PgExecutor, eventId: string): Promise<WebhookAttempt[]> {
  return ex
    .select(ATTEMPT_COLUMNS)
    .from(webhookAttempts)
    .where(eq(webhookAttempts.eventId, eventId))
    .orderBy(asc(webhookAttempts.id));
}

/**
 * Events newest first. `order` matches the merchant's orderId or the internal order id; `status`
 * and `merchantId` narrow further.
 */
export async function listWebhookEvents(
  ex: PgExecutor,
  filter: { order?: string; merchantId?: string; status?: WebhookEvent['status']; limit: number },
): Promise<ListedWebhookEvent[]> {
  const conditions: SQL[] = [];
  if (filter.order)
    conditions.push(or(eq(webhookEvents.orderRef, filter.order), eq(orders.orderId, filter.order)) as SQL);
  if (filter.merchantId) conditions.push(eq(webhookEvents.merchantId, filter.merchantId));
  if (filter.status) conditions.push(eq(webhookEvents.status, filter.status));
  return ex
    .select({ ...LOG_COLUMNS, data: webhookEvents.data })
    .from(webhookEvents)
    .leftJoin(orders, eq(orders.id, webhookEvents.orderRef))
    .where(and(...conditions))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.orderVersion), desc(webhookEvents.id))
    .limit(filter.limit);
}
