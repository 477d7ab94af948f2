import type { WebhookAttempt, WebhookLogEvent } from '../db/store.ts';

import { AppError } from '../domain/errors.ts';
import type { Deps } from './deps.ts';
import { cursorText, parseCursor } from './search-orders.ts';

/** The delivery log's query as typed into its form. */
export interface WebhooksQuery {
  status?: string;
  merchant?: string;
  type?: string;
  after?: string;
}

/** One page of the delivery log. */
export interface WebhooksResult {
  events: (WebhookLogEvent & { merchantName: string | null; lastAttempt: WebhookAttempt | null })[];
  next: string | null;
  partial: boolean;
}

export const WEBHOOKS_PAGE_SIZE = 50;

/**
 * A page of webhook events, newest first, filtered by status (pending, delivered, failed),
 * merchant and event type, each with its latest attempt (status code, latency, error). Bounded
 * work per request (listWebhookEventsPage). Throws `validation` for an unknown status or a bad
 * page link.
 */
export async function browseWebhooks(
  deps: Pick<Deps, 'db'>,
  query: WebhooksQuery,
  limit = WEBHOOKS_PAGE_SIZE,
): Promise<WebhooksResult> {
  if (query.status && !['pending', 'delivered', 'failed'].includes(query.status))
    throw new AppError('validation', 'status must be pending, delivered or failed.');
  if (query.type && !/^[A-Z_]{1,40}$/.test(query.type))
    throw new AppError('validation', 'type must be an event type such as ORDER_SUCCESS.');
  const page = await deps.db.listWebhookEventsPage({
    filter: {
      status: (query.status || undefined) as WebhookLogEvent['status'] | undefined,
      merchantId: query.merchant || undefined,
      notifyType: query.type || undefined,
    },
    after: query.after ? parseCursor(query.after) : null,
    limit,
  });
  const last = await deps.db.lastAttemptsOf(page.events.map((e) => e.id));
  const names = new Map((await deps.db.listMerchants()).map((m) => [m.id, m.name]));
  return {
    events: page.events.map((e) => ({
      ...e,
      merchantName: names.get(e.merchantId) ?? null,
      lastAttempt: last.get(e.id) ?? null,
    })),
    next: page.next ? cursorText(page.next) : null,
    partial: page.partial,
  };
}
