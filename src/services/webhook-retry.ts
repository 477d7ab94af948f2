import type { AttemptOutcome } from '../db/store.ts';

import { backoffDelay } from '../lib/backoff.ts';

/** The backoff settings of `config.webhooks`. */
export interface RetrySettings {
  retryForSeconds: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
}

/** When retrying an event stops: its own window (after a resend), or its transition time plus the configured window. */
export function retryDeadline(
  event: { createdAt: number; retryUntil: number | null },
  settings: RetrySettings,
): number {
  return event.retryUntil ?? event.createdAt + settings.retryForSeconds * 1000;
}

/**
 * The delay after the `failures`-th failed attempt (1 = the first): exponential with jitter, drawn
 * from [c/2, c] where c = min(retryMaxDelayMs, retryBaseMs · 2^(failures−1)). With the defaults
 * (base 1 min, cap 12 h) the ceilings run 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 min, then 12 h.
 * Since each ceiling doubles, a later delay is never shorter than an earlier one.
 */
export function retryDelay(failures: number, settings: RetrySettings, random: () => number = Math.random) {
  return backoffDelay(Math.max(0, failures - 1), settings.retryBaseMs, settings.retryMaxDelayMs, random);
}

/**
 * Decides what an attempt means for its event:
 * - any 2xx: delivered;
 * - 410 Gone: failed now (the receiver says the endpoint is gone; an operator can resend);
 * - anything else (other statuses, timeouts, refused connections, no callback URL): retried after
 *   `retryDelay`, but never later than the deadline; once an attempt at or after the deadline
 *   fails, the event is failed for good (kept for `kassa webhooks resend`).
 */
export function decideOutcome(
  input: { statusCode: number | null; failures: number; now: number; deadline: number },
  settings: RetrySettings,
  random: () => number = Math.random,
): AttemptOutcome {
  const { statusCode } = input;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { status: 'delivered' };
  if (statusCode === 410) return { status: 'failed' };
  if (input.now >= input.deadline) return { status: 'failed' };
  const next = input.now + retryDelay(input.failures, settings, random);
  return { status: 'pending', nextAttemptAt: Math.min(next, input.deadline) };
}
