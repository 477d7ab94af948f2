import type { MoneyStore } from '../../store/money.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** MoneyStore on PostgreSQL (the contract: src/db/store/money.ts). */
export function pgMoneyStore(_db: PgDb): MoneyStore {
  return {
    adjustBalance: notPorted('adjustBalance'),
    lastAdjustmentId: notPorted('lastAdjustmentId'),
    listBalances: notPorted('listBalances'),
    listLedgerEntries: notPorted('listLedgerEntries'),
    pageLedgerEntries: notPorted('pageLedgerEntries'),
    ledgerEntriesOfOrder: notPorted('ledgerEntriesOfOrder'),
    sumLedgerEntries: notPorted('sumLedgerEntries'),
    acceptPayout: notPorted('acceptPayout'),
    liveAttempts: notPorted('liveAttempts'),
    attemptsOfOrder: notPorted('attemptsOfOrder'),
    payoutsToSend: notPorted('payoutsToSend'),
    highestNonce: notPorted('highestNonce'),
    recordedSpends: notPorted('recordedSpends'),
    commitSignedPayout: notPorted('commitSignedPayout'),
    recordPayoutProgress: notPorted('recordPayoutProgress'),
    holdPayout: notPorted('holdPayout'),
    holdsOf: notPorted('holdsOf'),
    holdHistoryOf: notPorted('holdHistoryOf'),
    approvePayout: notPorted('approvePayout'),
    rejectPayout: notPorted('rejectPayout'),
    retryHeldPayout: notPorted('retryHeldPayout'),
    failHeldPayout: notPorted('failHeldPayout'),
    listPayouts: notPorted('listPayouts'),
    heldPayoutCounts: notPorted('heldPayoutCounts'),
    openPayouts: notPorted('openPayouts'),
    attemptsOfOrders: notPorted('attemptsOfOrders'),
  };
}
