import { createWebhookDeliverer } from '../../src/services/deliver-webhooks.ts';
import type { JobGroup } from '../main.ts';

/** The scheduler name of the delivery job (for `scheduler.nudge`). */
export const DELIVER_WEBHOOKS_JOB = 'deliver-webhooks';

/**
 * Webhook delivery for the worker: every `webhooks.pollIntervalMs` a run claims the due events and
 * delivers them concurrently; a run lasts while requests are in flight (refilling freed slots at
 * once), so the scheduler's overlap protection never lets two runs claim side by side. Without
 * KASSA_MASTER_KEY the webhook secrets cannot be opened: the group logs that once and schedules
 * nothing, and events stay pending until a worker with the key runs.
 */
export const webhookJobs: JobGroup = (deps, scheduler) => {
  if (!deps.box) {
    deps.logger.error(
      'KASSA_MASTER_KEY is not set: webhooks cannot be signed, so this worker delivers none (they stay queued)',
    );
    return;
  }
  const deliverer = createWebhookDeliverer(deps);
  scheduler.every(DELIVER_WEBHOOKS_JOB, deps.config.webhooks.pollIntervalMs, (signal) =>
    deliverer.run(signal),
  );
};
