import {
  and,
  asc,
  eq,
  gt,
  lt,
  lte,
  notExists,
  notInArray,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';
import { webhookAttempts } from '../schema/webhook-attempts.ts';
import { webhookEvents } from '../schema/webhook-events.ts';

/** A stored webhook event (the outbox row). `data` is the exact JSON text that is signed and sent. */
export interface WebhookEvent {
  id: string;
  merchantId: string;
  /** Internal order id (`ord_…`); null for events that belong to no order (test events). */
  orderRef: string | null;
  orderVersion: number;
  notifyType: string;
  data: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  retryUntil: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** One recorded delivery attempt. `statusCode` is null when no HTTP answer came back. */
export interface WebhookAttempt {
  eventId: string;
  attemptedAt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** What an attempt decided for its event. */
export type AttemptOutcome =
  | { status: 'delivered' }
  | { status: 'pending'; nextAttemptAt: number }
  | { status: 'failed' };

const earlier = alias(webhookEvents, 'earlier');

/**
 * The due condition: pending, due by `now`, and no earlier event of the same order still pending
 * (in flight or waiting for a retry). Events without an order wait for nothing.
 */
function dueCondition(db: Db, now: number | Placeholder, excludeMerchantIds: string[]): SQL {
  const conditions = [
    eq(webhookEvents.status, 'pending'),
    lte(webhookEvents.nextAttemptAt, now),
    notExists(
      db
        .select({ one: sql`1` })
        .from(earlier)
        .where(
          and(
            eq(earlier.orderRef, webhookEvents.orderRef),
            eq(earlier.status, 'pending'),
            lt(earlier.orderVersion, webhookEvents.orderVersion),
          ),
        ),
    ),
  ];
  if (excludeMerchantIds.length > 0)
    conditions.push(notInArray(webhookEvents.merchantId, excludeMerchantIds));
  return and(...conditions) as SQL;
}

const selectDue = (db: Db) =>
  prepared(db, 'webhooks.due', () =>
    db
      .select()
      .from(webhookEvents)
      .where(dueCondition(db, sql.placeholder('now'), []))
      .orderBy(asc(webhookEvents.nextAttemptAt))
      .limit(sql.placeholder('limit'))
      .prepare(),
  );

/** What to claim: due events up to `limit`, leased until `leaseUntil`. */
export interface ClaimRequest {
  now: number;
  limit: number;
  leaseUntil: number;
  /** How many due candidates to look at (≥ limit), for `accept` to choose from. */
  scan?: number;
  /** Merchants to skip in SQL (those already at their share of the pool). */
  excludeMerchantIds?: string[];
  /** Takes or refuses a candidate; called in due order, may count what it took. */
  accept?: (event: WebhookEvent) => boolean;
}

function selectCandidates(db: Db, input: ClaimRequest, limit: number): WebhookEvent[] {
  const exclude = input.excludeMerchantIds ?? [];
  return exclude.length === 0
    ? selectDue(db).all({ now: input.now, limit })
    : db
        .select()
        .from(webhookEvents)
        .where(dueCondition(db, input.now, exclude))
        .orderBy(asc(webhookEvents.nextAttemptAt))
        .limit(limit)
        .all();
}

function claimInTransaction(db: Db, input: ClaimRequest): WebhookEvent[] {
  if (input.limit <= 0) return [];
  const candidates = selectCandidates(db, input, Math.max(input.limit, input.scan ?? input.limit));
  const taken: WebhookEvent[] = [];
  const lease = leaseStatement(db);
  for (const row of candidates) {
    if (taken.length >= input.limit) break;
    if (input.accept && !input.accept(row)) continue;
    lease.run({ id: row.id, leaseUntil: input.leaseUntil });
    taken.push({ ...row, nextAttemptAt: input.leaseUntil });
  }
  return taken;
}

/**
 * Claims due events for delivery, in one write transaction: looks at up to `scan` candidates in due
 * order (by `nextAttemptAt` alone, so the due index yields them without a sort and the scan stops at
 * the limit; ties come in insertion order; at most one per order, since a later event waits for
 * the earlier one), keeps those `accept` takes (up to `limit`), and leases them by moving their
 * `nextAttemptAt` to `leaseUntil`. A lease that runs out (the worker died mid-request) makes the
 * event due again, so delivery is at least once.
 */
export function claimDueWebhookEvents(db: Db, input: ClaimRequest): WebhookEvent[] {
  return settleAndClaimWebhookEvents(db, { settle: [], claim: input }).claimed;
}

/**
 * The worker's one write per round: records the attempts that finished (each as in
 * `recordWebhookAttempt`), then claims due events (as in `claimDueWebhookEvents`), in one
 * transaction, so an order's next event is claimable in the same round its predecessor is settled.
 * With nothing to record and nothing due it only reads. Returns, per record, whether the event took
 * it, and the claimed events.
 */
export function settleAndClaimWebhookEvents(
  db: Db,
  input: { settle: AttemptRecord[]; claim: ClaimRequest },
): { settled: boolean[]; claimed: WebhookEvent[] } {
  if (
    input.settle.length === 0 &&
    (input.claim.limit <= 0 || selectCandidates(db, input.claim, 1).length === 0)
  )
    return { settled: [], claimed: [] };
  return writeTransaction(db, () => ({
    settled: input.settle.map((r) => settleInTransaction(db, r)),
    claimed: claimInTransaction(db, input.claim),
  }));
}

const insertAttempt = (db: Db) =>
  prepared(db, 'webhooks.insertAttempt', () =>
    db
      .insert(webhookAttempts)
      .values({
        eventId: sql.placeholder('eventId'),
        attemptedAt: sql.placeholder('attemptedAt'),
        statusCode: sql.placeholder('statusCode'),
        latencyMs: sql.placeholder('latencyMs'),
        error: sql.placeholder('error'),
      } as never)
      .prepare(),
  );

const leaseStatement = (db: Db) =>
  prepared(db, 'webhooks.lease', () =>
    db
      .update(webhookEvents)
      .set({ nextAttemptAt: sql.placeholder('leaseUntil') } as never)
      .where(and(eq(webhookEvents.id, sql.placeholder('id')), eq(webhookEvents.status, 'pending')))
      .prepare(),
  );

const settleStatement = (db: Db, status: AttemptOutcome['status']) =>
  prepared(db, `webhooks.settle.${status}`, () =>
    db
      .update(webhookEvents)
      .set({
        attempts: sql`${webhookEvents.attempts} + 1`,
        status,
        lastError: sql.placeholder('error'),
        ...(status === 'delivered' ? { deliveredAt: sql.placeholder('now') } : {}),
        ...(status === 'pending' ? { nextAttemptAt: sql.placeholder('next') } : {}),
      } as never)
      .where(and(eq(webhookEvents.id, sql.placeholder('id')), eq(webhookEvents.status, 'pending')))
      .returning({ orderRef: webhookEvents.orderRef, orderVersion: webhookEvents.orderVersion })
      .prepare(),
  );

/** Moves the later pending events of an order behind their head's next attempt (see recordWebhookAttempt). */
const holdSuccessors = (db: Db) =>
  prepared(db, 'webhooks.holdSuccessors', () =>
    db
      .update(webhookEvents)
      .set({ nextAttemptAt: sql.placeholder('next') } as never)
      .where(
        and(
          eq(webhookEvents.orderRef, sql.placeholder('orderRef')),
          eq(webhookEvents.status, 'pending'),
          gt(webhookEvents.orderVersion, sql.placeholder('version')),
          lt(webhookEvents.nextAttemptAt, sql.placeholder('next')),
        ),
      )
      .prepare(),
  );

/** One finished attempt and what it decided for its event. */
export interface AttemptRecord {
  attempt: WebhookAttempt;
  outcome: AttemptOutcome;
  /** When the outcome was decided (deliveredAt for a delivery). */
  now: number;
}

function settleInTransaction(db: Db, input: AttemptRecord): boolean {
  const { attempt, outcome } = input;
  insertAttempt(db).run({ ...attempt });
  const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
  const settled = settleStatement(db, outcome.status).get({
    id: attempt.eventId,
    error: attempt.error,
    now: input.now,
    next,
  }) as { orderRef: string | null; orderVersion: number } | undefined;
  if (settled?.orderRef && next !== null) {
    holdSuccessors(db).run({ orderRef: settled.orderRef, version: settled.orderVersion, next });
  }
  return settled !== undefined;
}

/**
 * Records one attempt and its outcome in one transaction: the attempt row, the attempt count, the
 * status (delivered, failed, or pending with the next attempt time) and the last error. The event
 * is only changed while it is pending; returns false when it was not (a second worker, or an
 * operator's resend, settled it first), in which case only the attempt row is written.
 * When the event stays pending, the later pending events of its order (which must wait for it
 * anyway) get the same next attempt time, so they sit behind it in the due index instead of being
 * scanned, blocked, by every claim; `kassa webhooks list` then shows when they can go at the earliest.
 */
export function recordWebhookAttempt(db: Db, input: AttemptRecord): boolean {
  return writeTransaction(db, () => settleInTransaction(db, input));
}

/** Stores an event that no order transition wrote (a `kassa webhooks test` event). */
export function insertWebhookEvent(db: Db, event: WebhookEvent): void {
  db.insert(webhookEvents).values(event).run();
}

/**
 * Queues an event for delivery again, whatever its status: pending, due now, with a new retry
 * window that ends at `retryUntil` and its attempt count (and so its backoff) back at zero. The
 * attempt rows are kept. Returns the event as it was before, or null when no such event exists.
 */
export function resendWebhookEvent(
  db: Db,
  input: { id: string; now: number; retryUntil: number },
): WebhookEvent | null {
  return writeTransaction(db, () => {
    const before = findWebhookEvent(db, input.id);
    if (!before) return null;
    db.update(webhookEvents)
      .set({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: input.now,
        retryUntil: input.retryUntil,
        deliveredAt: null,
      })
      .where(eq(webhookEvents.id, input.id))
      .run();
    return before;
  });
}

/** One event by id, or null. */
export function findWebhookEvent(db: Db, id: string): WebhookEvent | null {
  return db.select().from(webhookEvents).where(eq(webhookEvents.id, id)).get() ?? null;
}
