import type { ScanStore } from '../../store/scanning.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** ScanStore on PostgreSQL (the contract: src/db/store/scanning.ts). */
export function pgScanStore(_db: PgDb): ScanStore {
  return {
    getCursor: notPorted('getCursor'),
    listCursors: notPorted('listCursors'),
    unfinalBlocks: notPorted('unfinalBlocks'),
    watchedAddresses: notPorted('watchedAddresses'),
    oldestUnscannedCollectionAt: notPorted('oldestUnscannedCollectionAt'),
    collectionsByAddress: notPorted('collectionsByAddress'),
    collectionsAwaitingFinality: notPorted('collectionsAwaitingFinality'),
    ordersByIds: notPorted('ordersByIds'),
    transfersOfOrders: notPorted('transfersOfOrders'),
    transfersOfTransactions: notPorted('transfersOfTransactions'),
    pendingTransfers: notPorted('pendingTransfers'),
    unattributedTransfers: notPorted('unattributedTransfers'),
    transfersOfChain: notPorted('transfersOfChain'),
    recordScan: notPorted('recordScan'),
    resetCursor: notPorted('resetCursor'),
    freeDepositAddressCount: notPorted('freeDepositAddressCount'),
    addToDepositPool: notPorted('addToDepositPool'),
  };
}
