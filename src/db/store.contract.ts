import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors.ts';
import type { MerchantRecord, NewOrder, NewSweep, NewSweepTx, Store, TransferWrite } from './store.ts';

/** A store under test and how to release it. */
export interface OpenedStore {
  store: Store;
  close(): void | Promise<void>;
}

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

function merchant(id: string, over: Partial<MerchantRecord> = {}): MerchantRecord {
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

function collection(merchantId: string, orderId: string, over: Partial<NewOrder> = {}): NewOrder {
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
const derive = (family: string, index: number) => `${family}-address-${index}`;

function transfer(id: string, over: Partial<TransferWrite> = {}): TransferWrite {
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

/**
 * The behaviour every implementation of the Store port keeps (DESIGN.md section 10): each
 * function is one atomic unit that writes all it takes or nothing, a guard miss rejects, ingest is
 * idempotent on natural keys, and failures arrive as rejected promises. Run it against an
 * implementation with `storeContract('SQLite', open)`; the PostgreSQL implementation runs the same
 * suite. `open` gives a fresh, migrated, empty store for each test.
 */
export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`the Store port on ${name}`, () => {
    let opened: OpenedStore;
    let store: Store;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
      await store.insertMerchant(merchant('mch_a'));
    });
    afterEach(async () => {
      await opened.close();
    });

    const create = (orderId: string, over: Partial<NewOrder> = {}) =>
      store.createOrder({ order: collection('mch_a', orderId, over), family: 'evm', derive, now: T0 });

    it('answers every call with a promise, and a refusal as a rejection, never a synchronous throw', async () => {
      const { order } = await create('A-1');
      const stale = { ...order, status: 'PENDING' as const };
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = store.applyOrderTransitions([{ order: stale, patch: { status: 'SUCCESS' } }], T0);
      }).not.toThrow();
      await expect(pending).rejects.toBeInstanceOf(AppError);
    });

    it('keeps merchants and lists only the active ones', async () => {
      await store.insertMerchant(merchant('mch_b', { createdAt: T0 + 1 }));
      expect((await store.findMerchant('mch_b'))?.tokenSealed).toBe('sealed-token-mch_b');
      expect(await store.findMerchant('mch_none')).toBeNull();
      await store.updateMerchant('mch_a', { status: 'disabled' }, T0 + 2);
      expect((await store.listActiveMerchants()).map((m) => m.id)).toEqual(['mch_b']);
      expect((await store.listMerchants()).map((m) => m.id).sort()).toEqual(['mch_a', 'mch_b']);
      await store.updateMerchant('mch_b', { compat: 'xpay' }, T0 + 3);
      expect((await store.findMerchant('mch_b'))?.compat).toBe('xpay');
    });

    it('creates an order once per merchant orderId, each with a deposit address of its own', async () => {
      await store.addToDepositPool('evm', 2, derive, T0);
      expect(await store.freeDepositAddressCount('evm')).toBe(2);
      const first = await create('A-1');
      const again = await create('A-1', { amount: '99', amountBase: 99_000_000n });
      const second = await create('A-2');
      const third = await create('A-3'); // the pool is empty now: derived on the spot
      expect(first.created).toBe(true);
      expect(again.created).toBe(false);
      expect(again.order.id).toBe(first.order.id);
      expect(again.order.amountBase).toBe(10_000_000n); // the stored order, not the retry's
      expect(again.paramsKey).toBe('params-A-1');
      const addresses = [first, second, third].map((r) => r.order.address);
      expect(new Set(addresses).size).toBe(3);
      expect(await store.freeDepositAddressCount('evm')).toBe(0);
      expect((await store.findOrderByMerchantOrderId('mch_a', 'A-2'))?.id).toBe(second.order.id);
      expect((await store.findOrderById(third.order.id))?.orderId).toBe('A-3');
      expect(await store.orderParamsKey(first.order.id)).toBe('params-A-1');
    });

    it('applies a transition with its webhook event, and a batch with a stale order not at all', async () => {
      const { order: a } = await create('A-1');
      const { order: b } = await create('A-2');
      const [pending] = await store.applyOrderTransitions(
        [{ order: a, patch: { status: 'PENDING', receivedBase: 1n } }],
        T0 + 1,
      );
      expect(pending?.status).toBe('PENDING');
      const events = await store.listWebhookEvents({ order: a.id, limit: 10 });
      expect(events.map((e) => e.notifyType)).toEqual(['ORDER_PENDING']);

      // `a` as read before the first transition is stale: the whole batch is refused
      await expect(
        store.applyOrderTransitions(
          [
            { order: b, patch: { status: 'EXPIRED' } },
            { order: a, patch: { status: 'EXPIRED' } },
          ],
          T0 + 2,
        ),
      ).rejects.toBeInstanceOf(AppError);
      expect((await store.findOrderById(b.id))?.status).toBe('INIT');
      expect((await store.findOrderById(a.id))?.status).toBe('PENDING');
      expect(await store.listWebhookEvents({ order: b.id, limit: 10 })).toEqual([]);
    });

    it('records a scan step whole: transfers, checkpoint and transitions, or nothing', async () => {
      const { order } = await create('A-1');
      const cursor = { height: 100, heightHash: '0xblock100', heightTime: T0 / 1000, finalHeight: 90 };
      await store.recordScan({
        chain: 'ETH',
        transfers: [transfer('trf_1')],
        statusChanges: [],
        transitions: [],
        cursor,
        now: T0,
      });
      expect(await store.getCursor('ETH')).toEqual({ chain: 'ETH', ...cursor });
      // the same observation again (a re-scan) is not a second transfer
      await store.recordScan({
        chain: 'ETH',
        transfers: [transfer('trf_1_again', { txid: '0xtx-trf_1' })],
        statusChanges: [],
        transitions: [],
        cursor,
        now: T0 + 1,
      });
      expect((await store.transfersOfChain('ETH')).length).toBe(1);

      const stale = { ...order, status: 'PENDING' as const };
      await expect(
        store.recordScan({
          chain: 'ETH',
          transfers: [transfer('trf_2', { txid: '0xtx-other' })],
          statusChanges: [],
          transitions: [{ order: stale, patch: { status: 'SUCCESS' } }],
          cursor: { ...cursor, height: 101, heightHash: '0xblock101' },
          now: T0 + 2,
        }),
      ).rejects.toBeInstanceOf(AppError);
      expect((await store.transfersOfChain('ETH')).map((t) => t.txid)).toEqual(['0xtx-trf_1']);
      expect((await store.getCursor('ETH'))?.height).toBe(100);
    });

    it('takes a request nonce once per merchant until it is pruned', async () => {
      expect(await store.consumeNonce('mch_a', 'n-1', T0 + 1000)).toBe(true);
      expect(await store.consumeNonce('mch_a', 'n-1', T0 + 1000)).toBe(false);
      expect(await store.consumeNonce('mch_b', 'n-1', T0 + 1000)).toBe(true);
      expect(await store.pruneNonces(T0 + 1001)).toBe(2);
      expect(await store.consumeNonce('mch_a', 'n-1', T0 + 5000)).toBe(true);
    });

    it('keeps the first value of a write-once setting', async () => {
      expect(await store.getSetting('key_fingerprint')).toBeNull();
      expect(await store.setSettingOnce('key_fingerprint', 'first')).toBe('first');
      expect(await store.setSettingOnce('key_fingerprint', 'second')).toBe('first');
      await store.setSetting('other', 'x');
      expect(await store.getSetting('other')).toBe('x');
    });

    it('never takes a balance below zero, and a refused adjustment leaves no entry', async () => {
      const key = { merchantId: 'mch_a', chain: 'ETH', symbol: 'USDT', decimals: 6 };
      await store.adjustBalance({ ...key, amountBase: 100n, reason: 'top-up', now: T0 });
      await expect(
        store.adjustBalance({ ...key, amountBase: -150n, reason: 'too much', now: T0 + 1 }),
      ).rejects.toMatchObject({ code: 'ledger_negative' });
      const [balance] = await store.listBalances({ merchantId: 'mch_a' });
      expect(balance?.available).toBe(100n);
      expect((await store.listLedgerEntries({ merchantId: 'mch_a' })).length).toBe(1);
    });

    it('adjusts once per form (the newest adjustment it saw), and pages the ledger newest first', async () => {
      const key = { merchantId: 'mch_a', chain: 'ETH', symbol: 'USDT', decimals: 6 };
      const form = { ...key, amountBase: 5n, reason: 'top-up', expectLastAdjustment: null };
      await store.adjustBalance({ ...form, now: T0 });
      await expect(store.adjustBalance({ ...form, now: T0 + 1 })).rejects.toMatchObject({
        code: 'state_conflict',
      });
      const newest = await store.lastAdjustmentId('mch_a');
      await store.adjustBalance({ ...form, expectLastAdjustment: newest, amountBase: 7n, now: T0 + 2 });
      const page = await store.pageLedgerEntries({ merchantId: 'mch_a', before: null, limit: 1 });
      expect(page.map((e) => e.availableDelta)).toEqual([7n]);
      const [last] = page;
      const older = await store.pageLedgerEntries({ merchantId: 'mch_a', before: last!, limit: 5 });
      expect(older.map((e) => e.availableDelta)).toEqual([5n]);
    });

    it('skips a webhook event without an attempt, keeping why', async () => {
      const { order } = await create('A-1');
      await store.applyOrderTransitions([{ order, patch: { status: 'PENDING', receivedBase: 1n } }], T0);
      const [event] = await store.claimDueWebhookEvents({ now: T0 + 10, limit: 10, leaseUntil: T0 + 5000 });
      const attempt = { eventId: event!.id, attemptedAt: T0 + 20, statusCode: null, latencyMs: 0 };
      const skipped = await store.recordWebhookAttempt({
        attempt: { ...attempt, error: 'not sent: XPay never sends ORDER_PENDING' },
        outcome: { status: 'skipped' },
        now: T0 + 20,
      });
      expect(skipped).toBe(true);
      const stored = await store.findWebhookEvent(event!.id);
      expect(stored).toMatchObject({
        status: 'skipped',
        lastError: 'not sent: XPay never sends ORDER_PENDING',
      });
      expect(await store.listWebhookAttempts(event!.id)).toEqual([]);
    });

    it('leases a claimed webhook event, and settles it with its attempt', async () => {
      const { order } = await create('A-1');
      await store.applyOrderTransitions([{ order, patch: { status: 'EXPIRED' } }], T0);
      const claim = { now: T0 + 10, limit: 10, leaseUntil: T0 + 5000 };
      const [event] = await store.claimDueWebhookEvents(claim);
      expect(event?.orderRef).toBe(order.id);
      expect(await store.claimDueWebhookEvents(claim)).toEqual([]);
      const settled = await store.recordWebhookAttempt({
        attempt: { eventId: event!.id, attemptedAt: T0 + 20, statusCode: 200, latencyMs: 5, error: null },
        outcome: { status: 'delivered' },
        now: T0 + 20,
      });
      expect(settled).toBe(true);
      expect((await store.findWebhookEvent(event!.id))?.status).toBe('delivered');
      expect((await store.listWebhookAttempts(event!.id)).map((a) => a.statusCode)).toEqual([200]);
    });

    const sweep = (id: string, over: Partial<NewSweep> = {}): NewSweep => ({
      id,
      chain: 'ETH',
      address: '0xdeposit',
      depositIndex: 7,
      destination: '0xhot',
      destinationKind: 'hot',
      symbol: 'USDT',
      tokenContract: '0x00000000000000000000000000000000000000aa',
      decimals: 6,
      feeMode: 'topup',
      amountBase: '5000000',
      feeEstimateBase: '1000',
      status: 'planned',
      createdAt: T0,
      ...over,
    });
    const sweepTx = (id: string, sweepId: string, over: Partial<NewSweepTx> = {}): NewSweepTx => ({
      id,
      sweepId,
      chain: 'ETH',
      role: 'topup',
      fromAddress: '0xhot',
      toAddress: '0xdeposit',
      nonce: 4,
      txHash: `0x${id}`,
      rawTx: `raw-${id}`,
      valueBase: '1000',
      status: 'signed',
      validUntil: null,
      slot: 'nonce 4',
      ...over,
    });

    it('keeps one open sweep per address and token, and moves a sweep only from the state it is in', async () => {
      await store.insertSweep(sweep('swp_1'));
      await expect(store.insertSweep(sweep('swp_2'))).rejects.toMatchObject({ code: 'state_conflict' });
      // a guard miss writes nothing: not the transaction that came with it either
      await expect(
        store.recordSweepStep({
          step: { id: 'swp_1', from: 'gas_final', to: 'signed' },
          newTxs: [sweepTx('t1', 'swp_1')],
          now: T0 + 1,
        }),
      ).rejects.toMatchObject({ code: 'state_conflict' });
      expect(await store.sweepTxsOf('swp_1')).toEqual([]);
      await store.recordSweepStep({
        step: { id: 'swp_1', from: 'planned', to: 'gas_sent' },
        newTxs: [sweepTx('t1', 'swp_1')],
        now: T0 + 2,
      });
      expect((await store.findSweep('swp_1'))?.status).toBe('gas_sent');
      expect(await store.highestNonce('ETH', '0xhot')).toBe(4);
      // a second transaction at a recorded nonce of the same sender is refused
      await expect(
        store.recordSweepStep({ newTxs: [sweepTx('t2', 'swp_1', { txHash: '0xother' })], now: T0 + 3 }),
      ).rejects.toMatchObject({ code: 'state_conflict' });
      expect((await store.openSweeps('ETH')).map((s) => s.id)).toEqual(['swp_1']);
      await store.recordSweepStep({
        step: { id: 'swp_1', from: 'gas_sent', to: 'failed', error: 'reverted' },
        now: T0 + 4,
      });
      await store.insertSweep(sweep('swp_3', { createdAt: T0 + 5 }));
      expect((await store.listSweeps({ status: 'failed' })).map((s) => s.id)).toEqual(['swp_1']);
    });

    it('records each cost once per transaction and kind, and sums them per chain and kind', async () => {
      await store.insertSweep(sweep('swp_1'));
      const cost = {
        chain: 'ETH',
        kind: 'gas_topup' as const,
        symbol: 'ETH',
        decimals: 18,
        amountBase: '700',
        sweepId: 'swp_1',
        txHash: '0xt1',
      };
      await store.recordSweepStep({ costs: [cost], now: T0 + 1 });
      await store.recordSweepStep({ costs: [cost], now: T0 + 2 });
      await store.recordSweepStep({ costs: [{ ...cost, txHash: '0xt2', amountBase: '300' }], now: T0 + 3 });
      expect(await store.sumOperatorCosts()).toEqual([
        { chain: 'ETH', kind: 'gas_topup', symbol: 'ETH', decimals: 18, amountBase: 1000n, count: 2 },
      ]);
    });

    it('lends the hot wallet to one holder at a time until its lease runs out', async () => {
      const lease = { chain: 'ETH', now: T0, ttlMs: 1000 };
      expect(await store.acquireWalletLease({ ...lease, holder: 'worker' })).toBe(true);
      expect(await store.acquireWalletLease({ ...lease, holder: 'cli:1', now: T0 + 999 })).toBe(false);
      expect(await store.acquireWalletLease({ ...lease, holder: 'worker', now: T0 + 999 })).toBe(true);
      expect(await store.acquireWalletLease({ ...lease, holder: 'cli:1', now: T0 + 1500 })).toBe(false);
      expect(await store.acquireWalletLease({ ...lease, holder: 'cli:1', now: T0 + 2000 })).toBe(true);
      await store.releaseWalletLease({ chain: 'ETH', holder: 'worker' }); // not its lease any more
      expect(await store.acquireWalletLease({ ...lease, holder: 'worker', now: T0 + 2001 })).toBe(false);
      await store.releaseWalletLease({ chain: 'ETH', holder: 'cli:1' });
      expect(await store.acquireWalletLease({ ...lease, holder: 'worker', now: T0 + 2002 })).toBe(true);
    });

    it('stores a reconciliation run with the floats and fees it learnt: the newest run is the last, a float is replaced, a fee stays as first read', async () => {
      const { order } = await create('A-1');
      const records = await store.chainRecords({ chain: order.chain, atHeight: Number.MAX_SAFE_INTEGER });
      expect(records.deposits).toEqual([{ address: order.address, orderId: 'A-1', merchantId: 'mch_a' }]);
      expect(await store.lastReconciliation()).toBeNull();
      const run = (id: string, at: number) => ({
        id,
        startedAt: at - 5,
        finishedAt: at,
        chains: ['ETH', 'TRON'],
        addresses: 2,
        unexplained: 0,
        report: '{}',
      });
      const hot = { chain: 'ETH', address: '0xhot', symbol: 'USDT' };
      await store.recordReconciliation({
        run: run('rec_1', T0 + 10),
        floats: [{ ...hot, floatBase: 5n }],
        txFees: [{ chain: 'ETH', txHash: '0xf1', feeBase: 21n }],
      });
      await store.recordReconciliation({
        run: run('rec_2', T0 + 20),
        floats: [{ ...hot, floatBase: 7n }],
        txFees: [{ chain: 'ETH', txHash: '0xf1', feeBase: 99n }],
      });
      expect(await store.lastReconciliation()).toEqual(run('rec_2', T0 + 20));
      expect(await store.walletFloatsOf('ETH')).toEqual([{ ...hot, floatBase: 7n, updatedAt: T0 + 20 }]);
      expect(await store.walletFloatsOf('TRON')).toEqual([]);
      expect(await store.cachedTxFees('ETH')).toEqual(new Map([['0xf1', 21n]]));
    });
  });
}
