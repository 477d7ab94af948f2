import type { WebhookAttempt } from '../db/store.ts';

import type { Deps } from './deps.ts';

/** An event as `kassa webhooks list` shows it: times as ISO strings, no payload, no secrets. */
export interface WebhookEventView {
  eventId: string;
  merchantId: string;
  /** The merchant's orderId; null for test events. */
  orderId: string | null;
  notifyType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  /** Pending events only: when the next attempt is due (or, mid-attempt, when its lease ends). */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  lastError: string | null;
}

/** A listed event with its attempt history (for `--json`). */
export type WebhookEventDetail = WebhookEventView & {
  history: (Omit<WebhookAttempt, 'eventId' | 'attemptedAt'> & { attemptedAt: string })[];
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Webhook events newest first (at most `limit`, default 200): all, those of one order (the
 * merchant's orderId or the internal id), of one merchant, or only the failed ones. With
 * `history`, each event carries its attempts (time, status code, latency, error).
 */
export async function listWebhooks(
  deps: Pick<Deps, 'db'>,
  filter: { order?: string; merchantId?: string; failed?: boolean; limit?: number; history?: boolean },
): Promise<WebhookEventDetail[] | WebhookEventView[]> {
  const rows = await deps.db.listWebhookEvents({
    order: filter.order,
    merchantId: filter.merchantId,
    status: filter.failed ? 'failed' : undefined,
    limit: filter.limit ?? 200,
  });
  const out: (WebhookEventDetail | WebhookEventView)[] = [];
  for (const e of rows) {
    const view: WebhookEventView = {
      eventId: e.id,
      merchantId: e.merchantId,
      orderId: e.orderId,
      notifyType: e.notifyType,
      status: e.status,
      attempts: e.attempts,
      createdAt: iso(e.createdAt) as string,
      nextAttemptAt: e.status === 'pending' ? iso(e.nextAttemptAt) : null,
      deliveredAt: iso(e.deliveredAt),
      lastError: e.lastError,
    };
    if (!filter.history) {
      out.push(view);
      continue;
    }
    const history = (await deps.db.listWebhookAttempts(e.id)).map((a) => ({
      attemptedAt: iso(a.attemptedAt) as string,
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      error: a.error,
    }));
    out.push({ ...view, history });
  }
  return out as WebhookEventDetail[] | WebhookEventView[];
}
