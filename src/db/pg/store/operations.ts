import type { OperationsStore } from '../../store/operations.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** OperationsStore on PostgreSQL (the contract: src/db/store/operations.ts). */
export function pgOperationsStore(_db: PgDb): OperationsStore {
  return {
    getSetting: notPorted('getSetting'),
    setSettingOnce: notPorted('setSettingOnce'),
    setSetting: notPorted('setSetting'),
    upsertToken: notPorted('upsertToken'),
    listAddedTokens: notPorted('listAddedTokens'),
    probeWrite: notPorted('probeWrite'),
    cursorTimes: notPorted('cursorTimes'),
    reorgStats: notPorted('reorgStats'),
    orderCounts: notPorted('orderCounts'),
    oldestQueuedPayouts: notPorted('oldestQueuedPayouts'),
    webhookEventCounts: notPorted('webhookEventCounts'),
    webhookAttemptsSince: notPorted('webhookAttemptsSince'),
  };
}
