import type {
  AttemptRecord,
  ClaimRequest,
  WebhookAttempt,
  WebhookEvent,
} from '../repositories/webhook-events.ts';
import type { ListedWebhookEvent, WebhookLogEvent, WebhookLogFilter } from '../repositories/webhook-log.ts';

/** Webhook events (the outbox), their delivery attempts, and the dashboard's webhook log. Part of the Store port (../store.ts). */
export interface WebhookStore {
  // Webhook events and attempts (repositories/webhook-events.ts; the lists in webhook-log.ts)
  /**
   * Claims due events for delivery, in one write transaction: looks at up to `scan` candidates in due
   * order (by `nextAttemptAt` alone, so the due index yields them without a sort and the scan stops at
   * the limit; ties come in insertion order; at most one per order, since a later event waits for
   * the earlier one), keeps those `accept` takes (up to `limit`), and leases them by moving their
   * `nextAttemptAt` to `leaseUntil`. A lease that runs out (the worker died mid-request) makes the
   * event due again, so delivery is at least once.
   */
  claimDueWebhookEvents(input: ClaimRequest): Promise<WebhookEvent[]>;
  /**
   * The worker's one write per round: records the attempts that finished (each as in
   * `recordWebhookAttempt`), then claims due events (as in `claimDueWebhookEvents`), in one
   * transaction, so an order's next event is claimable in the same round its predecessor is settled.
   * With nothing to record and nothing due it only reads. Returns, per record, whether the event took
   * it, and the claimed events.
   */
  settleAndClaimWebhookEvents(input: {
    settle: AttemptRecord[];
    claim: ClaimRequest;
  }): Promise<{ settled: boolean[]; claimed: WebhookEvent[] }>;
  /**
   * Records one attempt and its outcome in one transaction: the attempt row, the attempt count, the
   * status (delivered, failed, or pending with the next attempt time) and the last error. The event
   * is only changed while it is pending; returns false when it was not (a second worker, or an
   * operator's resend, settled it first), in which case only the attempt row is written.
   * When the event stays pending, the later pending events of its order (which must wait for it
   * anyway) get the same next attempt time, so they sit behind it in the due index instead of being
   * scanned, blocked, by every claim; `kassa webhooks list` then shows when they can go at the earliest.
   */
  recordWebhookAttempt(input: AttemptRecord): Promise<boolean>;
  /** Stores an event that no order transition wrote (a `kassa webhooks test` event). */
  insertWebhookEvent(event: WebhookEvent): Promise<void>;
  /** One event by id, or null. */
  findWebhookEvent(id: string): Promise<WebhookEvent | null>;
  /** The attempts of one event, oldest first. */
  listWebhookAttempts(eventId: string): Promise<WebhookAttempt[]>;
  /**
   * Events newest first. `order` matches the merchant's orderId or the internal order id; `status`
   * and `merchantId` narrow further.
   */
  listWebhookEvents(filter: {
    order?: string;
    merchantId?: string;
    status?: WebhookEvent['status'];
    limit: number;
  }): Promise<ListedWebhookEvent[]>;
  /**
   * Queues an event for delivery again, whatever its status: pending, due now, with a new retry
   * window that ends at `retryUntil` and its attempt count (and so its backoff) back at zero. The
   * attempt rows are kept. Returns the event as it was before, or null when no such event exists.
   */
  resendWebhookEvent(input: { id: string; now: number; retryUntil: number }): Promise<WebhookEvent | null>;
  // The dashboard's webhook log (repositories/webhook-log.ts)
  /**
   * One page of webhook events, newest first (creation time, then id), with bounded work: the
   * failed or pending ones through the status index when they are few, one merchant's through its
   * (merchant, time) index, anything else by walking the creation-time index over at most
   * SCAN_WINDOW events (then `partial` is true and `next` continues where it stopped).
   */
  listWebhookEventsPage(input: {
    filter: WebhookLogFilter;
    after: { createdAt: number; id: string } | null;
    limit: number;
  }): Promise<{
    events: WebhookLogEvent[];
    next: { createdAt: number; id: string } | null;
    partial: boolean;
  }>;
  /** The latest attempt of each of the given events (events never tried are absent). */
  lastAttemptsOf(eventIds: string[]): Promise<Map<string, WebhookAttempt>>;
  /** Events that need the operator's eye: pending (queued or retrying) and failed, counted on the status index. */
  webhookAttentionCounts(): Promise<{ pending: number; failed: number }>;
}
