import { AppError } from '../domain/errors.ts';
import type { Deps } from './deps.ts';

/**
 * Queues an event for delivery again (`kassa webhooks resend`), whatever its status: due now, with
 * a fresh retry window and backoff; the worker sends it with the same eventId, so a receiver that
 * already processed it can recognise it. Needs no secret: the worker signs. Throws `not_found`.
 */
export async function resendWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  eventId: string,
): Promise<{ eventId: string; previousStatus: string; status: 'pending' }> {
  const now = deps.clock.now();
  const before = await deps.db.resendWebhookEvent({
    id: eventId,
    now,
    retryUntil: now + deps.config.webhooks.retryForSeconds * 1000,
  });
  if (!before) throw new AppError('not_found', `No webhook event ${eventId}.`);
  return { eventId, previousStatus: before.status, status: 'pending' };
}
