import type { Db } from './client.ts';
import { mapRejections } from './query-error.ts';
import * as adminSessions from './repositories/admin-sessions.ts';
import * as adminUsers from './repositories/admin-users.ts';
import * as chainScan from './repositories/chain-scan.ts';
import * as chainScanWrite from './repositories/chain-scan-write.ts';
import * as depositAddresses from './repositories/deposit-addresses.ts';
import * as ledger from './repositories/ledger.ts';
import * as ledgerEntries from './repositories/ledger-entries.ts';
import * as merchants from './repositories/merchants.ts';
import * as nonces from './repositories/nonces.ts';
import * as operatorCosts from './repositories/operator-costs.ts';
import * as ops from './repositories/ops.ts';
import * as orderCreation from './repositories/order-creation.ts';
import * as orderSearch from './repositories/order-search.ts';
import * as orderStats from './repositories/order-stats.ts';
import * as orderToken from './repositories/order-token.ts';
import * as orders from './repositories/orders.ts';
import * as payoutAcceptance from './repositories/payout-acceptance.ts';
import * as payoutDecisions from './repositories/payout-decisions.ts';
import * as payoutHolds from './repositories/payout-holds.ts';
import * as payoutQueue from './repositories/payout-queue.ts';
import * as payouts from './repositories/payouts.ts';
import * as reconciliation from './repositories/reconciliation.ts';
import * as scanOrders from './repositories/scan-orders.ts';
import * as settings from './repositories/settings.ts';
import * as sweepCandidates from './repositories/sweep-candidates.ts';
import * as sweeps from './repositories/sweeps.ts';
import * as tokens from './repositories/tokens.ts';
import * as transferTotals from './repositories/transfer-totals.ts';
import * as walletLeases from './repositories/wallet-leases.ts';
import * as webhookEvents from './repositories/webhook-events.ts';
import * as webhookLog from './repositories/webhook-log.ts';
import * as webhookResend from './repositories/webhook-resend.ts';
import * as workerLeases from './repositories/worker-leases.ts';
import type { Store } from './store.ts';

const handles = new WeakMap<Store, Db>();

/**
 * The Store port on a SQLite database: each function of ./repositories bound to `db`. Calls stay
 * what they are underneath (better-sqlite3 answers synchronously, transactions stay synchronous
 * inside their repository function, the API's group commit stays in batched-write.ts); the port
 * makes every one a promise, and a synchronous throw a rejection.
 */
export function createSqliteStore(db: Db): Store {
  const store: Store = mapRejections({
    // repositories/admin-sessions.ts
    findAdminSession: async (...args) => adminSessions.findAdminSession(db, ...args),
    touchAdminSession: async (...args) => adminSessions.touchAdminSession(db, ...args),
    deleteAdminSession: async (...args) => adminSessions.deleteAdminSession(db, ...args),
    deleteAdminSessionsOfUser: async (...args) => adminSessions.deleteAdminSessionsOfUser(db, ...args),
    listAdminSessionsOfUser: async (...args) => adminSessions.listAdminSessionsOfUser(db, ...args),
    // repositories/admin-users.ts
    insertAdminUser: async (...args) => adminUsers.insertAdminUser(db, ...args),
    findAdminUserByEmail: async (...args) => adminUsers.findAdminUserByEmail(db, ...args),
    findAdminUserById: async (...args) => adminUsers.findAdminUserById(db, ...args),
    listAdminUsers: async (...args) => adminUsers.listAdminUsers(db, ...args),
    recordSignInFailure: async (...args) => adminUsers.recordSignInFailure(db, ...args),
    startAdminSession: async (...args) => adminUsers.startAdminSession(db, ...args),
    completeSecondFactor: async (...args) => adminUsers.completeSecondFactor(db, ...args),
    replaceAdminPassword: async (...args) => adminUsers.replaceAdminPassword(db, ...args),
    setPendingTotp: async (...args) => adminUsers.setPendingTotp(db, ...args),
    enableTotp: async (...args) => adminUsers.enableTotp(db, ...args),
    disableTotp: async (...args) => adminUsers.disableTotp(db, ...args),
    deleteAdminUser: async (...args) => adminUsers.deleteAdminUser(db, ...args),
    // repositories/chain-scan.ts
    getCursor: async (...args) => chainScan.getCursor(db, ...args),
    listCursors: async (...args) => chainScan.listCursors(db, ...args),
    unfinalBlocks: async (...args) => chainScan.unfinalBlocks(db, ...args),
    watchedAddresses: async (...args) => scanOrders.watchedAddresses(db, ...args),
    oldestUnscannedCollectionAt: async (...args) => scanOrders.oldestUnscannedCollectionAt(db, ...args),
    collectionsByAddress: async (...args) => scanOrders.collectionsByAddress(db, ...args),
    collectionsAwaitingFinality: async (...args) => scanOrders.collectionsAwaitingFinality(db, ...args),
    ordersByIds: async (...args) => scanOrders.ordersByIds(db, ...args),
    transfersOfOrders: async (...args) => chainScan.transfersOfOrders(db, ...args),
    transfersOfTransactions: async (...args) => chainScan.transfersOfTransactions(db, ...args),
    pendingTransfers: async (...args) => chainScan.pendingTransfers(db, ...args),
    unattributedTransfers: async (...args) => chainScan.unattributedTransfers(db, ...args),
    transfersOfChain: async (...args) => chainScan.transfersOfChain(db, ...args),
    recordScan: async (...args) => chainScanWrite.recordScan(db, ...args),
    resetCursor: async (...args) => chainScanWrite.resetCursor(db, ...args),
    // repositories/deposit-addresses.ts
    freeDepositAddressCount: async (...args) => depositAddresses.freeDepositAddressCount(db, ...args),
    addToDepositPool: async (...args) => depositAddresses.addToDepositPool(db, ...args),
    // repositories/ledger.ts (the entries read back: ledger-entries.ts)
    adjustBalance: async (...args) => ledger.adjustBalance(db, ...args),
    listBalances: async (...args) => ledger.listBalances(db, ...args),
    listLedgerEntries: async (...args) => ledgerEntries.listLedgerEntries(db, ...args),
    pageLedgerEntries: async (...args) => ledgerEntries.pageLedgerEntries(db, ...args),
    ledgerEntriesOfOrder: async (...args) => ledgerEntries.ledgerEntriesOfOrder(db, ...args),
    lastAdjustmentId: async (...args) => ledger.lastAdjustmentId(db, ...args),
    sumLedgerEntries: async (...args) => ledgerEntries.sumLedgerEntries(db, ...args),
    // repositories/merchants.ts
    insertMerchant: async (...args) => merchants.insertMerchant(db, ...args),
    listMerchants: async (...args) => merchants.listMerchants(db, ...args),
    listActiveMerchants: async (...args) => merchants.listActiveMerchants(db, ...args),
    findMerchant: async (...args) => merchants.findMerchant(db, ...args),
    updateMerchant: async (...args) => merchants.updateMerchant(db, ...args),
    // repositories/nonces.ts
    consumeNonce: async (...args) => nonces.consumeNonce(db, ...args),
    pruneNonces: async (...args) => nonces.pruneNonces(db, ...args),
    // repositories/ops.ts
    probeWrite: async (...args) => ops.probeWrite(db, ...args),
    cursorTimes: async (...args) => ops.cursorTimes(db, ...args),
    reorgStats: async (...args) => ops.reorgStats(db, ...args),
    orderCounts: async (...args) => ops.orderCounts(db, ...args),
    oldestQueuedPayouts: async (...args) => ops.oldestQueuedPayouts(db, ...args),
    webhookEventCounts: async (...args) => ops.webhookEventCounts(db, ...args),
    webhookAttemptsSince: async (...args) => ops.webhookAttemptsSince(db, ...args),
    // repositories/order-search.ts
    listOrdersPage: async (...args) => orderSearch.listOrdersPage(db, ...args),
    // repositories/order-stats.ts
    orderStatsSlice: async (...args) => orderStats.orderStatsSlice(db, ...args),
    openOrderCounts: async (...args) => orderStats.openOrderCounts(db, ...args),
    // repositories/orders.ts
    findOrderByMerchantOrderId: async (...args) => orders.findOrderByMerchantOrderId(db, ...args),
    findOrderById: async (...args) => orders.findOrderById(db, ...args),
    orderParamsKey: async (...args) => orders.orderParamsKey(db, ...args),
    findOrderToken: async (...args) => orderToken.findOrderToken(db, ...args),
    createOrder: async (...args) => orderCreation.createOrder(db, ...args),
    applyOrderTransitions: async (...args) => orders.applyOrderTransitions(db, ...args),
    findExpirableOrders: async (...args) => orders.findExpirableOrders(db, ...args),
    // repositories/payout-queue.ts
    openPayouts: async (...args) => payoutQueue.openPayouts(db, ...args),
    attemptsOfOrders: async (...args) => payoutQueue.attemptsOfOrders(db, ...args),
    // repositories/payouts.ts
    acceptPayout: async (...args) => payoutAcceptance.acceptPayout(db, ...args),
    liveAttempts: async (...args) => payouts.liveAttempts(db, ...args),
    attemptsOfOrder: async (...args) => payouts.attemptsOfOrder(db, ...args),
    payoutsToSend: async (...args) => payouts.payoutsToSend(db, ...args),
    highestNonce: async (...args) => payouts.highestNonce(db, ...args),
    recordedSpends: async (...args) => payouts.recordedSpends(db, ...args),
    commitSignedPayout: async (...args) => payouts.commitSignedPayout(db, ...args),
    recordPayoutProgress: async (...args) => payouts.recordPayoutProgress(db, ...args),
    holdPayout: async (...args) => payoutDecisions.holdPayout(db, ...args),
    holdsOf: async (...args) => payoutDecisions.holdsOf(db, ...args),
    holdHistoryOf: async (...args) => payoutHolds.holdHistoryOf(db, ...args),
    approvePayout: async (...args) => payoutDecisions.approvePayout(db, ...args),
    rejectPayout: async (...args) => payoutDecisions.rejectPayout(db, ...args),
    retryHeldPayout: async (...args) => payoutDecisions.retryHeldPayout(db, ...args),
    failHeldPayout: async (...args) => payoutDecisions.failHeldPayout(db, ...args),
    listPayouts: async (...args) => payoutQueue.listPayouts(db, ...args),
    heldPayoutCounts: async (...args) => payoutDecisions.heldPayoutCounts(db, ...args),
    // repositories/settings.ts
    getSetting: async (...args) => settings.getSetting(db, ...args),
    setSettingOnce: async (...args) => settings.setSettingOnce(db, ...args),
    setSetting: async (...args) => settings.setSetting(db, ...args),
    // repositories/reconciliation.ts
    chainRecords: async (...args) => reconciliation.chainRecords(db, ...args),
    cachedTxFees: async (...args) => reconciliation.cachedTxFees(db, ...args),
    walletFloatsOf: async (...args) => reconciliation.walletFloatsOf(db, ...args),
    recordReconciliation: async (...args) => reconciliation.recordReconciliation(db, ...args),
    lastReconciliation: async () => reconciliation.lastReconciliation(db),
    // repositories/sweep-candidates.ts, sweeps.ts, operator-costs.ts, wallet-leases.ts
    sweepCandidates: async (...args) => sweepCandidates.sweepCandidates(db, ...args),
    insertSweep: async (...args) => sweeps.insertSweep(db, ...args),
    recordSweepStep: async (...args) => sweeps.recordSweepStep(db, ...args),
    openSweeps: async (...args) => sweeps.openSweeps(db, ...args),
    findSweep: async (...args) => sweeps.findSweep(db, ...args),
    sweepTxsOf: async (...args) => sweeps.sweepTxsOf(db, ...args),
    sweepSpendsFrom: async (...args) => sweeps.sweepSpendsFrom(db, ...args),
    listSweeps: async (...args) => sweeps.listSweeps(db, ...args),
    sweepTotals: async (...args) => sweeps.sweepTotals(db, ...args),
    sumOperatorCosts: async (...args) => operatorCosts.sumOperatorCosts(db, ...args),
    acquireWalletLease: async (...args) => walletLeases.acquireWalletLease(db, ...args),
    releaseWalletLease: async (...args) => walletLeases.releaseWalletLease(db, ...args),
    // repositories/tokens.ts
    upsertToken: async (...args) => tokens.upsertToken(db, ...args),
    listAddedTokens: async (...args) => tokens.listAddedTokens(db, ...args),
    // repositories/transfer-totals.ts
    finalTransfersSlice: async (...args) => transferTotals.finalTransfersSlice(db, ...args),
    // repositories/webhook-events.ts (one event by id: webhook-resend.ts)
    claimDueWebhookEvents: async (...args) => webhookEvents.claimDueWebhookEvents(db, ...args),
    settleAndClaimWebhookEvents: async (...args) => webhookEvents.settleAndClaimWebhookEvents(db, ...args),
    recordWebhookAttempt: async (...args) => webhookEvents.recordWebhookAttempt(db, ...args),
    insertWebhookEvent: async (...args) => webhookResend.insertWebhookEvent(db, ...args),
    findWebhookEvent: async (...args) => webhookResend.findWebhookEvent(db, ...args),
    listWebhookAttempts: async (...args) => webhookLog.listWebhookAttempts(db, ...args),
    listWebhookEvents: async (...args) => webhookLog.listWebhookEvents(db, ...args),
    resendWebhookEvent: async (...args) => webhookResend.resendWebhookEvent(db, ...args),
    // repositories/webhook-log.ts
    listWebhookEventsPage: async (...args) => webhookLog.listWebhookEventsPage(db, ...args),
    lastAttemptsOf: async (...args) => webhookLog.lastAttemptsOf(db, ...args),
    webhookAttentionCounts: async (...args) => webhookLog.webhookAttentionCounts(db, ...args),
    // repositories/worker-leases.ts
    acquireWorkerLease: async (...args) => workerLeases.acquireWorkerLease(db, ...args),
    releaseWorkerLease: async (...args) => workerLeases.releaseWorkerLease(db, ...args),
    findWorkerLease: async (...args) => workerLeases.findWorkerLease(db, ...args),
  } satisfies Store);
  handles.set(store, db);
  return store;
}

/**
 * The SQLite handle under a store made by createSqliteStore: for the composition root (migrations,
 * lock waits, the WAL checkpointer, close) and for tests; never for services. Throws for another kind of store.
 */
export function sqliteOf(store: Store): Db {
  const db = handles.get(store);
  if (!db) throw new Error('not a SQLite store');
  return db;
}
