import { and, asc, desc, eq, or, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { orders } from '../schema/orders.ts';
import { webhookAttempts } from '../schema/webhook-attempts.ts';
import { webhookEvents } from '../schema/webhook-events.ts';
import type { WebhookAttempt, WebhookEvent } from './webhook-events.ts';

/** What the delivery log narrows by. */
export interface WebhookLogFilter {
  status?: WebhookEvent['status'];
  merchantId?: string;
  notifyType?: string;
}

/** A listed event with its order's merchant-facing orderId (null for test events). */
export type WebhookLogEvent = Omit<WebhookEvent, 'data'> & { orderId: string | null };

/** The most events one page request looks at when no index narrows the filter enough. */
export const SCAN_WINDOW = 25_000;
/** A status is read through its own index when it has at most this many events. */
export const DRIVER_CAP = 5_000;

const COLUMNS = `e.id, e.merchant_id AS merchantId, e.order_ref AS orderRef, e.order_version AS orderVersion,
  e.notify_type AS notifyType, e.status, e.attempts, e.next_attempt_at AS nextAttemptAt,
  e.retry_until AS retryUntil, e.last_error AS lastError, e.created_at AS createdAt,
  e.delivered_at AS deliveredAt, o.order_id AS orderId`;

/**
 * One page of webhook events, newest first (creation time, then id), with bounded work: the
 * failed or pending ones through the status index when they are few, one merchant's through its
 * (merchant, time) index, anything else by walking the creation-time index over at most
 * SCAN_WINDOW events (then `partial` is true and `next` continues where it stopped).
 */
export function listWebhookEventsPage(
  db: Db,
  input: { filter: WebhookLogFilter; after: { createdAt: number; id: string } | null; limit: number },
): { events: WebhookLogEvent[]; next: { createdAt: number; id: string } | null; partial: boolean } {
  const conditions: string[] = [];
  const params: Record<string, string | number> = {};
  const { filter } = input;
  if (filter.status) {
    conditions.push('status = @status');
    params.status = filter.status;
  }
  if (filter.merchantId) {
    conditions.push('merchant_id = @merchantId');
    params.merchantId = filter.merchantId;
  }
  if (filter.notifyType) {
    conditions.push('notify_type = @notifyType');
    params.notifyType = filter.notifyType;
  }
  const keyset = input.after ? '(created_at, id) < (@afterAt, @afterId)' : null;
  if (input.after) {
    params.afterAt = input.after.createdAt;
    params.afterId = input.after.id;
  }
  const take = Math.max(1, Math.floor(input.limit)) + 1;
  const all = [...conditions, ...(keyset ? [keyset] : [])];
  const whereAll = all.length > 0 ? `WHERE ${all.join(' AND ')}` : '';

  let index: string | null = null;
  if (filter.status) {
    const { n } = db.$client
      .prepare(
        `SELECT count(*) AS n FROM (SELECT 1 FROM webhook_events INDEXED BY webhook_events_due
         WHERE status = @status LIMIT ${DRIVER_CAP + 1})`,
      )
      .get({ status: filter.status }) as { n: number };
    if (n <= DRIVER_CAP) index = 'webhook_events_due';
  }
  if (!index && filter.merchantId) index = 'webhook_events_merchant';

  let ids: { id: string; created_at: number }[];
  let boundary: { id: string; created_at: number } | undefined;
  if (index) {
    ids = db.$client
      .prepare(
        `SELECT id, created_at FROM webhook_events INDEXED BY ${index} ${whereAll}
         ORDER BY created_at DESC, id DESC LIMIT ${take}`,
      )
      .all(params) as typeof ids;
  } else {
    const range = keyset ? `WHERE ${keyset}` : '';
    const rest = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    ids = db.$client
      .prepare(
        `SELECT id, created_at FROM (SELECT id, created_at, status, merchant_id, notify_type
           FROM webhook_events INDEXED BY webhook_events_created ${range}
           ORDER BY created_at DESC, id DESC LIMIT ${SCAN_WINDOW}) ${rest} LIMIT ${take}`,
      )
      .all(params) as typeof ids;
    if (ids.length < take)
      boundary = db.$client
        .prepare(
          `SELECT id, created_at FROM webhook_events INDEXED BY webhook_events_created ${range}
           ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${SCAN_WINDOW - 1}`,
        )
        .get(params) as typeof boundary;
  }
  const shown = ids.slice(0, take - 1);
  const events = loadEvents(
    db,
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

function loadEvents(db: Db, ids: string[]): WebhookLogEvent[] {
  if (ids.length === 0) return [];
  const rows = db.$client
    .prepare(
      `SELECT ${COLUMNS} FROM webhook_events e LEFT JOIN orders o ON o.id = e.order_ref
       WHERE e.id IN (${ids.map(() => '?').join(', ')})`,
    )
    .all(...ids) as WebhookLogEvent[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((e): e is WebhookLogEvent => e !== undefined);
}

/** The latest attempt of each of the given events (events never tried are absent). */
export function lastAttemptsOf(db: Db, eventIds: string[]): Map<string, WebhookAttempt> {
  const out = new Map<string, WebhookAttempt>();
  if (eventIds.length === 0) return out;
  const rows = db.$client
    .prepare(
      `SELECT event_id AS eventId, attempted_at AS attemptedAt, status_code AS statusCode,
         latency_ms AS latencyMs, error FROM webhook_attempts
       WHERE id IN (SELECT max(id) FROM webhook_attempts WHERE event_id IN (${eventIds.map(() => '?').join(', ')})
         GROUP BY event_id)`,
    )
    .all(...eventIds) as WebhookAttempt[];
  for (const r of rows) out.set(r.eventId, r);
  return out;
}

/** Events that need the operator's eye: pending (queued or retrying) and failed, counted on the status index. */
export function webhookAttentionCounts(db: Db): { pending: number; failed: number } {
  const rows = db.$client
    .prepare(
      `SELECT status, count(*) AS n FROM webhook_events WHERE status IN ('pending', 'failed') GROUP BY status`,
    )
    .all() as { status: string; n: number }[];
  const of = (s: string) => rows.find((r) => r.status === s)?.n ?? 0;
  return { pending: of('pending'), failed: of('failed') };
}

/** The attempts of one event, oldest first. */
export function listWebhookAttempts(db: Db, eventId: string): WebhookAttempt[] {
  return db
    .select({
      eventId: webhookAttempts.eventId,
      attemptedAt: webhookAttempts.attemptedAt,
      statusCode: webhookAttempts.statusCode,
      latencyMs: webhookAttempts.latencyMs,
      error: webhookAttempts.error,
    })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.eventId, eventId))
    .orderBy(asc(webhookAttempts.id))
    .all();
}

/** An event with the merchant's own orderId of its order (null for events without an order). */
export type ListedWebhookEvent = WebhookEvent & { orderId: string | null };

/**
 * Events newest first. `order` matches the merchant's orderId or the internal order id; `status`
 * and `merchantId` narrow further.
 */
export function listWebhookEvents(
  db: Db,
  filter: { order?: string; merchantId?: string; status?: WebhookEvent['status']; limit: number },
): ListedWebhookEvent[] {
  const conditions: SQL[] = [];
  if (filter.order)
    conditions.push(or(eq(webhookEvents.orderRef, filter.order), eq(orders.orderId, filter.order)) as SQL);
  if (filter.merchantId) conditions.push(eq(webhookEvents.merchantId, filter.merchantId));
  if (filter.status) conditions.push(eq(webhookEvents.status, filter.status));
  return db
    .select({
      id: webhookEvents.id,
      merchantId: webhookEvents.merchantId,
      orderRef: webhookEvents.orderRef,
      orderVersion: webhookEvents.orderVersion,
      notifyType: webhookEvents.notifyType,
      data: webhookEvents.data,
      status: webhookEvents.status,
      attempts: webhookEvents.attempts,
      nextAttemptAt: webhookEvents.nextAttemptAt,
      retryUntil: webhookEvents.retryUntil,
      lastError: webhookEvents.lastError,
      createdAt: webhookEvents.createdAt,
      deliveredAt: webhookEvents.deliveredAt,
      orderId: orders.orderId,
    })
    .from(webhookEvents)
    .leftJoin(orders, eq(orders.id, webhookEvents.orderRef))
    .where(and(...conditions))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.orderVersion))
    .limit(filter.limit)
    .all();
}
