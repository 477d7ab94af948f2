import { afterEach, beforeEach } from 'vitest';
import type { MerchantRecord, NewOrder, Store, TransferWrite } from '../store.ts';

// What every part of the Store contract (../store.contract.ts) shares: the fixtures, and the store
// under test, opened fresh before each test with merchant mch_a in it.

/** A store under test and how to release it. */
export interface OpenedStore {
  store: Store;
  close(): void | Promise<void>;
}

/** The clock of every fixture. */
export const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

/** A merchant fixture; `over` replaces fields. */
export function merchant(id: string, over: Partial<MerchantRecord> = {}): MerchantRecord {
  return {
    id,
    kind: 'V3',
    name: `shop ${id}`,
    tokenSealed: `sealed-token-${id}`,
    webhookSecretSealed: `sealed-secret-${id}`,
    callbackUrl: null,
    compat: 'none',
    status: 'active',
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

/** A collection order fixture; `over` replaces fields. */
export function collection(merchantId: string, orderId: string, over: Partial<NewOrder> = {}): NewOrder {
  return {
    merchantId,
    orderId,
    uid: null,
    type: 'COLLECTION',
    chain: 'ETH',
    symbol: 'USDT',
    tokenContract: '0x00000000000000000000000000000000000000aa',
    decimals: 6,
    amount: '10',
    amountBase: 10_000_000n,
    fee: '0',
    address: null,
    receiveAddress: null,
    expiresAt: T0 + 3_600_000,
    paramsKey: `params-${orderId}`,
    ...over,
  };
}

/** A derivation that tells which index it was asked for. */
export const derive = (family: string, index: number) => `${family}-address-${index}`;

/** A transfer fixture; `over` replaces fields. */
export function transfer(id: string, over: Partial<TransferWrite> = {}): TransferWrite {
  return {
    id,
    chain: 'ETH',
    txid: `0xtx-${id}`,
    eventKey: '0',
    blockNum: 100,
    blockHash: '0xblock100',
    blockTimestamp: T0 / 1000,
    fromAddress: '0xpayer',
    toAddress: '0xsomeone',
    tokenContract: '0x00000000000000000000000000000000000000aa',
    symbol: 'USDT',
    amountBase: 5_000_000n,
    status: 'pending',
    orderRef: null,
    unattributedReason: 'no_order',
    ...over,
  };
}

/** The store of the running test (set before each one by openStoreForEachTest). */
export let store: Store;

/** Creates a collection of merchant mch_a on ETH (a fresh deposit address from `derive`). */
export const create = (orderId: string, over: Partial<NewOrder> = {}) =>
  store.createOrder({ order: collection('mch_a', orderId, over), family: 'evm', derive, now: T0 });

/** Opens a fresh store with merchant mch_a before each test of the enclosing describe, and closes it after. */
export function openStoreForEachTest(open: () => Promise<OpenedStore>): void {
  let opened: OpenedStore;
  beforeEach(async () => {
    opened = await open();
    store = opened.store;
    await store.insertMerchant(merchant('mch_a'));
  });
  afterEach(async () => {
    await opened.close();
  });
}
