import { expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import type { NewOrder } from '../store.ts';
import { collection, derive, store, T0 } from './context.ts';

/** A collection of mch_a created at `at`. */
const collect = async (orderId: string, at: number, over: Partial<NewOrder> = {}, family = 'evm' as const) =>
  (await store.createOrder({ order: collection('mch_a', orderId, over), family, derive, now: at })).order;

const finish = (order: Order, status: Order['status'], now = T0 + 1) =>
  store.applyOrderTransitions([{ order, patch: { status } }], now).then(([o]) => o as Order);

/** The Store contract on the orders a scanner watches (../store/scanning.ts); it runs inside scanningContract. */
export function scanningOrdersContract(): void {
  it('watches the addresses of open collections and of those that expired lately, on their chain only', async () => {
    const open = await collect('W-1', T0 + 10, { expiresAt: T0 + 100 });
    const paying = await finish(await collect('W-2', T0 + 5, { expiresAt: T0 + 100 }), 'PENDING');
    const lately = await finish(await collect('W-3', T0 + 3, { expiresAt: T0 + 50 }), 'EXPIRED');
    const longAgo = await finish(await collect('W-4', T0 + 1, { expiresAt: T0 - 50 }), 'EXPIRED');
    await store.createOrder({
      order: collection('mch_a', 'W-5', { chain: 'TRON', tokenContract: null, symbol: 'TRX' }),
      family: 'tron',
      derive,
      now: T0,
    });
    await store.createOrder({
      order: collection('mch_a', 'W-6', { type: 'PAYOUT', address: '0xhot', receiveAddress: '0xdest' }),
      family: null,
      derive,
      now: T0,
    });
    const watched = await store.watchedAddresses('ETH', T0);
    expect(watched).toEqual({
      addresses: new Set([open.address, paying.address, lately.address]),
      native: false,
    });
    expect((await store.watchedAddresses('ETH', T0 + 60)).addresses).toEqual(
      new Set([open.address, paying.address]),
    );
    expect((await store.watchedAddresses('TRON', T0)).native).toBe(true);
    expect(await store.watchedAddresses('SUI', T0)).toEqual({ addresses: new Set(), native: false });

    // a first scan reads back to the oldest open collection, or one that expired after `expiredSince`
    expect(await store.oldestUnscannedCollectionAt('ETH', T0)).toBe(T0 + 3);
    expect(await store.oldestUnscannedCollectionAt('ETH', T0 - 100)).toBe(T0 + 1);
    expect(await store.oldestUnscannedCollectionAt('ETH', T0 + 60)).toBe(T0 + 5);
    expect(await store.oldestUnscannedCollectionAt('SUI', 0)).toBeNull();
    expect(longAgo.status).toBe('EXPIRED');
  });

  it('finds collections by deposit address and id, and those a transaction already paid', async () => {
    const a = await collect('B-1', T0);
    const b = await finish(await collect('B-2', T0), 'PENDING');
    const c = await finish(await finish(await collect('B-3', T0), 'PENDING'), 'PENDING_CONFIRMATION', T0 + 2);
    const done = await finish(await finish(await collect('B-4', T0), 'PENDING'), 'EXPIRED', T0 + 2);
    const tron = (
      await store.createOrder({
        order: collection('mch_a', 'B-5', { chain: 'TRON' }),
        family: 'tron',
        derive,
        now: T0,
      })
    ).order;
    const found = await store.collectionsByAddress('ETH', [
      a.address,
      done.address,
      tron.address,
      '0xnobody',
    ]);
    expect([...found.keys()].sort()).toEqual([a.address, done.address].sort());
    expect(found.get(done.address)).toEqual(done);
    const many = await store.collectionsByAddress(
      'ETH',
      Array.from({ length: 1200 }, (_, i) => (i === 1100 ? a.address : `0xfiller${i}`)),
    );
    expect([...many.keys()]).toEqual([a.address]);

    const awaiting = await store.collectionsAwaitingFinality('ETH');
    expect(awaiting.map((o) => o.id).sort()).toEqual([b.id, c.id].sort());
    expect(await store.collectionsAwaitingFinality('TRON')).toEqual([]);

    const byId = await store.ordersByIds([a.id, tron.id, 'ord_unknown']);
    expect([...byId.keys()].sort()).toEqual([a.id, tron.id].sort());
    expect(byId.get(tron.id)).toEqual(tron);
    expect((await store.ordersByIds([])).size).toBe(0);
  });
}
