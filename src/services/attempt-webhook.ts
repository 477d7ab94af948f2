import { randomBytes } from 'node:crypto';
import type { AttemptRecord, WebhookEvent } from '../db/store.ts';
import { NOTIFY_TYPES } from '../domain/events.ts';
import type { NotifyOrder } from '../domain/notify-order.ts';
import { toXpayNotifyOrder, XPAY_NOTIFY_TYPES } from '../domain/xpay-notify-order.ts';
import type { Deps } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { sendWebhook } from './send-webhook.ts';
import { type SignedWebhook, signWebhook } from './sign-webhook.ts';
import { signXpayWebhook } from './sign-xpay-webhook.ts';
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

/** Why an order event was not sent to a merchant in XPay mode (recorded as the event's last error). */
export function xpaySkipReason(notifyType: string): string {
  return `not sent: XPay never sends ${notifyType}, and the merchant is in XPay mode (kassa merchant set-compat)`;
}

const ORDER_EVENTS: ReadonlySet<string> = new Set(NOTIFY_TYPES);

/**
 * The data of an event as XPay shapes it: an order event's NotifyOrder with the order's token facts
 * (base units, decimals, contract, milliseconds); any other event's data as stored.
 */
async function xpayDataOf(deps: Partial<Pick<Deps, 'db'>>, event: WebhookEvent): Promise<unknown> {
  const data: unknown = JSON.parse(event.data);
  if (!ORDER_EVENTS.has(event.notifyType) || !event.orderRef) return data;
  if (!deps.db) throw new Error('an XPay-shaped order event needs the database (its token)');
  const token = await deps.db.findOrderToken(event.orderRef);
  if (!token) throw new Error(`webhook event ${event.id}: order ${event.orderRef} not found`);
  return toXpayNotifyOrder(data as NotifyOrder, { decimals: token.decimals, contract: token.tokenContract });
}

/** Signs one attempt the merchant's way: XPay's body and sign in XPay mode, the interface's otherwise. */
async function signFor(
  deps: Partial<Pick<Deps, 'db'>>,
  event: WebhookEvent,
  merchant: Merchant,
  timestamp: number,
): Promise<SignedWebhook> {
  const nonce = randomBytes(16).toString('hex');
  if (merchant.compat === 'xpay') {
    const data = await xpayDataOf(deps, event);
    return signXpayWebhook(
      { eventId: event.id, notifyType: event.notifyType, data, timestamp, nonce },
      merchant.webhookSecret,
    );
  }
  return signWebhook(
    { eventId: event.id, notifyType: event.notifyType, dataText: event.data, timestamp, nonce },
    merchant.webhookSecret,
  );
}

/**
 * Makes one delivery attempt of `event` to `merchant` and decides its outcome, writing nothing:
 * a fresh nonce and timestamp, signed with the merchant's webhook secret, POSTed with the
 * configured timeout. A merchant that is missing (disabled) or has no callback URL counts as a
 * failed attempt with a clear error, so the event is retried on the normal schedule and goes out
 * once a callback URL is set, or ends as failed (and can be resent) after the retry window.
 * A merchant in XPay mode gets XPay's body and signature (sign-xpay-webhook.ts), and an order
 * event XPay never sends (ORDER_PENDING, ORDER_REVERTED) is not sent at all: it is `skipped`.
 * Never throws for network or receiver problems.
 */
export async function performWebhookAttempt(
  deps: Pick<Deps, 'clock' | 'config'> & Partial<Pick<Deps, 'db'>>,
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
  if (
    merchant?.compat === 'xpay' &&
    ORDER_EVENTS.has(event.notifyType) &&
    !XPAY_NOTIFY_TYPES.has(event.notifyType)
  ) {
    return {
      attempt: {
        eventId: event.id,
        attemptedAt,
        statusCode: null,
        latencyMs: 0,
        error: xpaySkipReason(event.notifyType),
      },
      outcome: { status: 'skipped' },
      now: attemptedAt,
      target: null,
    };
  }
  if (!merchant) error = NO_MERCHANT_ERROR;
  else if (!merchant.callbackUrl) error = NO_CALLBACK_ERROR;
  else {
    const signed = await signFor(deps, event, merchant, Math.floor(attemptedAt / 1000));
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
