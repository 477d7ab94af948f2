import { AppError } from '../domain/errors.ts';
import { newId } from '../lib/ids.ts';
import { attemptWebhook } from './attempt-webhook.ts';
import { LEASE_GRACE_MS } from './deliver-webhooks.ts';
import type { Deps } from './deps.ts';
import { MerchantDirectory } from './merchant-directory.ts';

/** The notifyType of test events: never one of the ORDER_* types, so no receiver can take it for an order. */
export const WEBHOOK_TEST_TYPE = 'WEBHOOK_TEST';

/** What `kassa webhooks test` reports. */
export interface TestWebhookResult {
  eventId: string;
  merchantId: string;
  delivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/**
 * Sends one signed test event to a merchant's callback URL now and reports the answer
 * (`kassa webhooks test --merchant ID`). The event is signed and shaped exactly like an order event
 * but cannot be mistaken for one: notifyType `WEBHOOK_TEST`, and `data` is
 * `{test: true, merchantId, message}` with no orderId or status. It is stored (so it shows in
 * `kassa webhooks list` with its attempt) and is never retried: one attempt, delivered or failed.
 * Throws `not_found` for an unknown or disabled merchant and `validation` when it has no callback URL.
 */
export async function sendTestWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'box'>,
  merchantId: string,
): Promise<TestWebhookResult> {
  const merchant = await new MerchantDirectory(deps).byId(merchantId);
  if (!merchant) throw new AppError('not_found', `No active merchant ${merchantId}.`);
  if (!merchant.callbackUrl) {
    throw new AppError(
      'validation',
      `Merchant ${merchantId} has no callback URL; set one with kassa merchant set-callback ${merchantId} --url URL.`,
    );
  }
  const now = deps.clock.now();
  const event = {
    id: newId('evt'),
    merchantId,
    orderRef: null,
    orderVersion: 0,
    notifyType: WEBHOOK_TEST_TYPE,
    data: JSON.stringify({
      test: true,
      merchantId,
      message: 'Test event sent by `kassa webhooks test`. It is not about any order; do not act on it.',
    }),
    status: 'pending' as const,
    attempts: 0,
    // Leased while this process sends it; a deadline of now means a failed attempt is not retried.
    nextAttemptAt: now + deps.config.webhooks.timeoutMs + LEASE_GRACE_MS,
    retryUntil: now,
    lastError: null,
    createdAt: now,
    deliveredAt: null,
  };
  await deps.db.insertWebhookEvent(event);
  const r = await attemptWebhook(deps, event, merchant);
  return {
    eventId: event.id,
    merchantId,
    delivered: r.outcome.status === 'delivered',
    statusCode: r.attempt.statusCode,
    latencyMs: r.attempt.latencyMs,
    error: r.attempt.error,
  };
}
