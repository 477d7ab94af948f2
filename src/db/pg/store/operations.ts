import type { OperationsStore } from '../../store/operations.ts';
import type { PgDb } from '../client.ts';
import * as ops from '../repositories/ops.ts';
import * as settings from '../repositories/settings.ts';
import * as tokens from '../repositories/tokens.ts';

/** OperationsStore on PostgreSQL (the contract: src/db/store/operations.ts). */
export function pgOperationsStore(db: PgDb): OperationsStore {
  return {
    // repositories/settings.ts
    getSetting: (...args) => settings.getSetting(db, ...args),
    setSettingOnce: (...args) => settings.setSettingOnce(db, ...args),
    setSetting: (...args) => settings.setSetting(db, ...args),
    // repositories/tokens.ts
    upsertToken: (...args) => tokens.upsertToken(db, ...args),
    listAddedTokens: (...args) => tokens.listAddedTokens(db, ...args),
    // repositories/ops.ts
    probeWrite: (...args) => ops.probeWrite(db, ...args),
    cursorTimes: () => ops.cursorTimes(db),
    reorgStats: () => ops.reorgStats(db),
    orderCounts: () => ops.orderCounts(db),
    oldestQueuedPayouts: () => ops.oldestQueuedPayouts(db),
    webhookEventCounts: () => ops.webhookEventCounts(db),
    webhookAttemptsSince: (...args) => ops.webhookAttemptsSince(db, ...args),
  };
}
