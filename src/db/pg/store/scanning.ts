import type { ScanStore } from '../../store/scanning.ts';
import type { PgDb } from '../client.ts';
import * as chainScan from '../repositories/chain-scan.ts';
import * as chainScanWrite from '../repositories/chain-scan-write.ts';
import * as depositAddresses from '../repositories/deposit-addresses.ts';
import * as scanOrders from '../repositories/scan-orders.ts';

/** ScanStore on PostgreSQL (the contract: src/db/store/scanning.ts). */
export function pgScanStore(db: PgDb): ScanStore {
  return {
    getCursor: (...args) => chainScan.getCursor(db, ...args),
    listCursors: () => chainScan.listCursors(db),
    unfinalBlocks: (...args) => chainScan.unfinalBlocks(db, ...args),
    watchedAddresses: (...args) => scanOrders.watchedAddresses(db, ...args),
    oldestUnscannedCollectionAt: (...args) => scanOrders.oldestUnscannedCollectionAt(db, ...args),
    collectionsByAddress: (...args) => scanOrders.collectionsByAddress(db, ...args),
    collectionsAwaitingFinality: (...args) => scanOrders.collectionsAwaitingFinality(db, ...args),
    ordersByIds: (...args) => scanOrders.ordersByIds(db, ...args),
    transfersOfOrders: (...args) => chainScan.transfersOfOrders(db, ...args),
    transfersOfTransactions: (...args) => chainScan.transfersOfTransactions(db, ...args),
    pendingTransfers: (...args) => chainScan.pendingTransfers(db, ...args),
    unattributedTransfers: (...args) => chainScan.unattributedTransfers(db, ...args),
    transfersOfChain: (...args) => chainScan.transfersOfChain(db, ...args),
    recordScan: (...args) => chainScanWrite.recordScan(db, ...args),
    resetCursor: (...args) => chainScanWrite.resetCursor(db, ...args),
    freeDepositAddressCount: (...args) => depositAddresses.freeDepositAddressCount(db, ...args),
    addToDepositPool: (...args) => depositAddresses.addToDepositPool(db, ...args),
  };
}
