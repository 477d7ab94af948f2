import type { WebhookStore } from '../../store/webhooks.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** WebhookStore on PostgreSQL (the contract: src/db/store/webhooks.ts). */
export function pgWebhookStore(_db: PgDb): WebhookStore {
  return {
    claimDueWebhookEvents: notPorted('claimDueWebhookEvents'),
    settleAndClaimWebhookEvents: notPorted('settleAndClaimWebhookEvents'),
    recordWebhookAttempt: notPorted('recordWebhookAttempt'),
    insertWebhookEvent: notPorted('insertWebhookEvent'),
    findWebhookEvent: notPorted('findWebhookEvent'),
    listWebhookAttempts: notPorted('listWebhookAttempts'),
    listWebhookEvents: notPorted('listWebhookEvents'),
    resendWebhookEvent: notPorted('resendWebhookEvent'),
    listWebhookEventsPage: notPorted('listWebhookEventsPage'),
    lastAttemptsOf: notPorted('lastAttemptsOf'),
    webhookAttentionCounts: notPorted('webhookAttentionCounts'),
  };
}
