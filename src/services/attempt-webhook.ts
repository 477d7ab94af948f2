import { randomBytes } from 'node:crypto';
import type { AttemptRecord, WebhookEvent } from '../db/store.ts';
import type { Deps } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { sendWebhook } from './send-webhook.ts';
import { signWebhook } from './sign-webhook.ts';
import { decideOutcome, retryDeadline } from './webhook-retry.ts';

/** A finished attempt, ready to record: what was sent where, what came back, what it decides. */
export interface AttemptResult extends AttemptRecord {
  /** The host the request went to (credentials and query removed), or null when nothing was sent. */
  target: string | null;
}

/** A recorded attempt. */
export interface AttemptReport extends AttemptResult {
  /** False when the event was no longer pending (settled elsewhere); the attempt row is still written. */
  recorded: boolean;
}

/** Why an event could not be sent to a merchant at all; retried on the normal schedule. */
export const NO_MERCHANT_ERROR = 'the merchant is disabled or unknown; nothing was sent';
export const NO_CALLBACK_ERROR =
  'the merchant has no callback URL (kassa merchant set-callback); nothing was sent';

/**
 * Makes one delivery attempt of `event` to `merchant` and decides its outcome, writing nothing:
 * a fresh nonce and timestamp, signed with the merchant's webhook secret, POSTed with the
 * configured timeout. A merchant that is missing (disabled) or has no callback URL counts as a
 * failed attempt with a clear error, so the event is retried on the normal schedule and goes out
 * once a callback URL is set, or ends as failed (and can be resent) after the retry window.
 * Never throws for network or receiver problems.
 */
export async function performWebhookAttempt(
  deps: Pick<Deps, 'clock' | 'config'>,
  event: WebhookEvent,
  merchant: Merchant | null,
  random: () => number = Math.random,
): Promise<AttemptResult> {
  const settings = deps.config.webhooks;
  const attemptedAt = deps.clock.now();
  let statusCode: number | null = null;
  let latencyMs = 0;
  let error: string | null;
  let target: string | null = null;
  if (!merchant) error = NO_MERCHANT_ERROR;
  else if (!merchant.callbackUrl) error = NO_CALLBACK_ERROR;
  else {
    const signed = signWebhook(
      {
        eventId: event.id,
        notifyType: event.notifyType,
        dataText: event.data,
        timestamp: Math.floor(attemptedAt / 1000),
        nonce: randomBytes(16).toString('hex'),
      },
      merchant.webhookSecret,
    );
    target = hostOf(merchant.callbackUrl);
    ({ statusCode, latencyMs, error } = await sendWebhook(merchant.callbackUrl, signed, settings.timeoutMs, {
      allowPrivateTargets: settings.allowPrivateTargets,
    }));
  }
  const now = deps.clock.now();
  const outcome = decideOutcome(
    { statusCode, failures: event.attempts + 1, now, deadline: retryDeadline(event, settings) },
    settings,
    random,
  );
  return { attempt: { eventId: event.id, attemptedAt, statusCode, latencyMs, error }, outcome, now, target };
}

/**
 * One attempt, recorded with its outcome in one transaction (`kassa webhooks test`; the worker
 * batches its records instead). A database error propagates.
 */
export async function attemptWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  event: WebhookEvent,
  merchant: Merchant | null,
  random: () => number = Math.random,
): Promise<AttemptReport> {
  const result = await performWebhookAttempt(deps, event, merchant, random);
  return { ...result, recorded: await deps.db.recordWebhookAttempt(result) };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
