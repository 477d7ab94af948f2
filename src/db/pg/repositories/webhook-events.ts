import { and, asc, eq, gt, inArray, lt, lte, notExists, notInArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  AttemptOutcome,
  AttemptRecord,
  ClaimRequest,
  WebhookEvent,
} from '../../repositories/webhook-events.ts';
import { type PgDb, type PgExecutor, type PgTx, pgTransaction } from '../client.ts';
import { webhookAttempts } from '../schema/webhook-attempts.ts';
import { webhookEvents } from '../schema/webhook-events.ts';

// The webhook outbox's claims and settlements on PostgreSQL: the same functions as
// ../../repositories/webhook-events.ts. Several deliverers may claim at once (a worker taking over,
// or two by mistake): the events a claim takes are locked FOR UPDATE SKIP LOCKED and leased in one
// statement (b), so each due event goes to one claimer, and a claimer never waits behind another.

const earlier = alias(webhookEvents, 'earlier');

/**
 * The due condition: pending, due by `now`, and no earlier event of the same order still pending
 * (in flight or waiting for a retry). Events without an order wait for nothing.
 */
function dueCondition(ex: PgExecutor, now: number, excludeMerchantIds: string[]): SQL {
  const conditions = [
    eq(webhookEvents.status, 'pending'),
    lte(webhookEvents.nextAttemptAt, now),
    notExists(
      ex
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

/**
 * Up to `limit` due events in due order (ties in creation order, then id: PostgreSQL has no insertion
 * order), leaving out the ids in `skip`. Not locked: only read.
 */
function selectCandidates(ex: PgExecutor, input: ClaimRequest, limit: number, skip: string[] = []) {
  const due = dueCondition(ex, input.now, input.excludeMerchantIds ?? []);
  return ex
    .select()
    .from(webhookEvents)
    .where(skip.length > 0 ? and(due, notInArray(webhookEvents.id, skip)) : due)
    .orderBy(asc(webhookEvents.nextAttemptAt), asc(webhookEvents.createdAt), asc(webhookEvents.id))
    .limit(limit);
}

/**
 * Leases those of `ids` that are still due and that no other transaction holds (b): the rows are
 * locked FOR UPDATE SKIP LOCKED and their due condition checked again on their newest version (one
 * another claimer leased and committed meanwhile is no longer due), then moved to `leaseUntil`, in
 * one statement. Returns the leased events as they are now.
 */
function leaseDue(tx: PgTx, input: ClaimRequest, ids: string[]) {
  const free = tx
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(inArray(webhookEvents.id, ids), dueCondition(tx, input.now, [])))
    .for('update', { skipLocked: true });
  return tx
    .update(webhookEvents)
    .set({ nextAttemptAt: input.leaseUntil })
    .where(inArray(webhookEvents.id, free))
    .returning();
}

/** How many times a claim looks again for due events after another claimer took some it wanted. */
const CLAIM_ROUNDS = 4;

/**
 * Reads up to `scan` candidates, asks `accept` about them in due order until `limit` are taken, and
 * leases what it took; only the taken rows are locked, so a second claimer at the same moment gets
 * the other due events rather than skipping the ones this claim looked at and left. When another
 * claimer got some of the taken ones first, it looks again past what it has seen.
 */
async function claimInTransaction(
  tx: PgTx,
  input: ClaimRequest,
  accept: (event: WebhookEvent) => boolean,
): Promise<WebhookEvent[]> {
  const scan = Math.max(input.limit, input.scan ?? input.limit);
  const seen: string[] = [];
  const taken: WebhookEvent[] = [];
  for (let round = 0; round < CLAIM_ROUNDS && taken.length < input.limit; round++) {
    const wanted: string[] = [];
    for (const row of await selectCandidates(tx, input, scan, seen)) {
      if (taken.length + wanted.length >= input.limit) break;
      seen.push(row.id);
      if (accept(row)) wanted.push(row.id);
    }
    if (wanted.length === 0) break;
    const leased = new Map((await leaseDue(tx, input, wanted)).map((e) => [e.id, e]));
    for (const id of wanted) if (leased.has(id)) taken.push(leased.get(id) as WebhookEvent);
    if (leased.size === wanted.length) break;
  }
  return taken;
}

/**
 * `accept` asked once per event: a transaction run again after a deadlock gets the first answer for an
 * event it already asked about, so a caller's counting in `accept` is not done twice.
 */
function askOnce(accept: ClaimRequest['accept']): (event: WebhookEvent) => boolean {
  if (!accept) return () => true;
  const answers = new Map<string, boolean>();
  return (event) => {
    const known = answers.get(event.id);
    if (known !== undefined) return known;
    const answer = accept(event);
    answers.set(event.id, answer);
    return answer;
  };
}

/**
 * Claims due events for delivery, in one transaction: looks at up to `scan` candidates in due order
 * (ties in creation order; at most one per order, since a later event waits for the earlier one),
 * keeps those `accept` takes (up to `limit`), and leases them by moving their `nextAttemptAt` to
 * `leaseUntil`. A lease that runs out (the worker died mid-request) makes the event due again, so
 * delivery is at least once. Two claimers at once get disjoint events (b: FOR UPDATE SKIP LOCKED).
 */
export async function claimDueWebhookEvents(db: PgDb, input: ClaimRequest): Promise<WebhookEvent[]> {
  return (await settleAndClaimWebhookEvents(db, { settle: [], claim: input })).claimed;
}

/**
 * The worker's one write per round: records the attempts that finished (each as in
 * `recordWebhookAttempt`), then claims due events (as in `claimDueWebhookEvents`), in one
 * transaction, so an order's next event is claimable in the same round its predecessor is settled.
 * With nothing to record and nothing due it only reads. Returns, per record, whether the event took
 * it, and the claimed events.
 */
export async function settleAndClaimWebhookEvents(
  db: PgDb,
  input: { settle: AttemptRecord[]; claim: ClaimRequest },
): Promise<{ settled: boolean[]; claimed: WebhookEvent[] }> {
  if (
    input.settle.length === 0 &&
    (input.claim.limit <= 0 || (await selectCandidates(db, input.claim, 1)).length === 0)
  )
    return { settled: [], claimed: [] };
  const accept = askOnce(input.claim.accept);
  return pgTransaction(db, async (tx) => {
    const settled: boolean[] = [];
    for (const record of input.settle) settled.push(await settleInTransaction(tx, record));
    return { settled, claimed: await claimInTransaction(tx, input.claim, accept) };
  });
}

/**
 * The guarded write of one outcome (a): the UPDATE only changes a pending event, and a concurrent
 * settlement of the same event waits for the first one's row lock, then finds it no longer pending.
 */
function settleEvent(
  tx: PgTx,
  id: string,
  outcome: Exclude<AttemptOutcome, { status: 'skipped' }>,
  error: string | null,
  now: number,
) {
  return tx
    .update(webhookEvents)
    .set({
      attempts: sql`${webhookEvents.attempts} + 1`,
      status: outcome.status,
      lastError: error,
      ...(outcome.status === 'delivered' ? { deliveredAt: now } : {}),
      ...(outcome.status === 'pending' ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
    })
    .where(and(eq(webhookEvents.id, id), eq(webhookEvents.status, 'pending')))
    .returning({ orderRef: webhookEvents.orderRef, orderVersion: webhookEvents.orderVersion });
}

async function settleInTransaction(tx: PgTx, input: AttemptRecord): Promise<boolean> {
  const { attempt, outcome } = input;
  if (outcome.status === 'skipped') {
    const skipped = await tx
      .update(webhookEvents)
      .set({ status: 'skipped', lastError: attempt.error })
      .where(and(eq(webhookEvents.id, attempt.eventId), eq(webhookEvents.status, 'pending')))
      .returning({ id: webhookEvents.id });
    return skipped.length > 0;
  }
  await tx.insert(webhookAttempts).values({ ...attempt });
  const [settled] = await settleEvent(tx, attempt.eventId, outcome, attempt.error, input.now);
  if (settled?.orderRef && outcome.status === 'pending') {
    // The later pending events of the order go behind their head (see recordWebhookAttempt).
    await tx
      .update(webhookEvents)
      .set({ nextAttemptAt: outcome.nextAttemptAt })
      .where(
        and(
          eq(webhookEvents.orderRef, settled.orderRef),
          eq(webhookEvents.status, 'pending'),
          gt(webhookEvents.orderVersion, settled.orderVersion),
          lt(webhookEvents.nextAttemptAt, outcome.nextAttemptAt),
        ),
      );
  }
  return settled !== undefined;
}

/**
 * Records one attempt and its outcome in one transaction: the attempt row, the attempt count, the
 * status (delivered, failed, or pending with the next attempt time) and the last error; a skipped
 * event only gets its status and the reason as last error (nothing was attempted). The event
 * is only changed while it is pending; returns false when it was not (a second worker, or an
 * operator's resend, settled it first), in which case only the attempt row is written.
 * When the event stays pending, the later pending events of its order (which must wait for it
 * anyway) get the same next attempt time, so they sit behind it in the due index instead of being
 * scanned, blocked, by every claim; `kassa webhooks list` then shows when they can go at the earliest.
 */
export async function recordWebhookAttempt(db: PgDb, input: AttemptRecord): Promise<boolean> {
  return pgTransaction(db, (tx) => settleInTransaction(tx, input));
}
