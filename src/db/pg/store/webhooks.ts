import type { WebhookStore } from '../../store/webhooks.ts';
import type { PgDb } from '../client.ts';
import * as webhookEvents from '../repositories/webhook-events.ts';
import * as webhookLog from '../repositories/webhook-log.ts';
import * as webhookResend from '../repositories/webhook-resend.ts';

/** WebhookStore on PostgreSQL (the contract: src/db/store/webhooks.ts). */
export function pgWebhookStore(db: PgDb): WebhookStore {
  return {
    // repositories/webhook-events.ts
    claimDueWebhookEvents: (...args) => webhookEvents.claimDueWebhookEvents(db, ...args),
    settleAndClaimWebhookEvents: (...args) => webhookEvents.settleAndClaimWebhookEvents(db, ...args),
    recordWebhookAttempt: (...args) => webhookEvents.recordWebhookAttempt(db, ...args),
    // repositories/webhook-resend.ts
    insertWebhookEvent: (...args) => webhookResend.insertWebhookEvent(db, ...args),
    findWebhookEvent: (...args) => webhookResend.findWebhookEvent(db, ...args),
    resendWebhookEvent: (...args) => webhookResend.resendWebhookEvent(db, ...args),
    // repositories/webhook-log.ts
    listWebhookAttempts: (...args) => webhookLog.listWebhookAttempts(db, ...args),
    listWebhookEvents: (...args) => webhookLog.listWebhookEvents(db, ...args),
    listWebhookEventsPage: (...args) => webhookLog.listWebhookEventsPage(db, ...args),
    lastAttemptsOf: (...args) => webhookLog.lastAttemptsOf(db, ...args),
    webhookAttentionCounts: () => webhookLog.webhookAttentionCounts(db),
  };
}
