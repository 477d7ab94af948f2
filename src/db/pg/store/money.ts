import type { MoneyStore } from '../../store/money.ts';
import type { PgDb } from '../client.ts';
import * as ledger from '../repositories/ledger.ts';
import * as ledgerEntries from '../repositories/ledger-entries.ts';
import * as payoutAcceptance from '../repositories/payout-acceptance.ts';
import * as payoutDecisions from '../repositories/payout-decisions.ts';
import * as payoutHolds from '../repositories/payout-holds.ts';
import * as payoutQueue from '../repositories/payout-queue.ts';
import * as payouts from '../repositories/payouts.ts';

/**
 * MoneyStore on PostgreSQL (the contract: src/db/store/money.ts). Each repository function says
 * what keeps it correct with several processes on one database (a guarded statement, a row or
 * advisory lock, or the isolation level).
 */
export function pgMoneyStore(db: PgDb): MoneyStore {
  return {
    // repositories/ledger.ts (the entries read back: ledger-entries.ts)
    adjustBalance: (...args) => ledger.adjustBalance(db, ...args),
    lastAdjustmentId: (...args) => ledger.lastAdjustmentId(db, ...args),
    listBalances: (...args) => ledger.listBalances(db, ...args),
    listLedgerEntries: (...args) => ledgerEntries.listLedgerEntries(db, ...args),
    pageLedgerEntries: (...args) => ledgerEntries.pageLedgerEntries(db, ...args),
    ledgerEntriesOfOrder: (...args) => ledgerEntries.ledgerEntriesOfOrder(db, ...args),
    sumLedgerEntries: (...args) => ledgerEntries.sumLedgerEntries(db, ...args),
    // repositories/payout-acceptance.ts, payouts.ts, payout-decisions.ts, payout-holds.ts
    acceptPayout: (...args) => payoutAcceptance.acceptPayout(db, ...args),
    liveAttempts: (...args) => payouts.liveAttempts(db, ...args),
    attemptsOfOrder: (...args) => payouts.attemptsOfOrder(db, ...args),
    payoutsToSend: (...args) => payouts.payoutsToSend(db, ...args),
    highestNonce: (...args) => payouts.highestNonce(db, ...args),
    recordedSpends: (...args) => payouts.recordedSpends(db, ...args),
    commitSignedPayout: (...args) => payouts.commitSignedPayout(db, ...args),
    recordPayoutProgress: (...args) => payouts.recordPayoutProgress(db, ...args),
    holdPayout: (...args) => payoutDecisions.holdPayout(db, ...args),
    holdsOf: (...args) => payoutDecisions.holdsOf(db, ...args),
    holdHistoryOf: (...args) => payoutHolds.holdHistoryOf(db, ...args),
    approvePayout: (...args) => payoutDecisions.approvePayout(db, ...args),
    rejectPayout: (...args) => payoutDecisions.rejectPayout(db, ...args),
    retryHeldPayout: (...args) => payoutDecisions.retryHeldPayout(db, ...args),
    failHeldPayout: (...args) => payoutDecisions.failHeldPayout(db, ...args),
    listPayouts: (...args) => payoutQueue.listPayouts(db, ...args),
    heldPayoutCounts: (...args) => payoutDecisions.heldPayoutCounts(db, ...args),
    // repositories/payout-queue.ts
    openPayouts: (...args) => payoutQueue.openPayouts(db, ...args),
    attemptsOfOrders: (...args) => payoutQueue.attemptsOfOrders(db, ...args),
  };
}
