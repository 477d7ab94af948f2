import { expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import { create, derive, store, T0 } from './context.ts';

/** `n` calls of `fn` started together (on PostgreSQL they race over the pool's connections). */
const together = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.allSettled(Array.from({ length: n }, (_, i) => fn(i)));

const fulfilled = <T>(results: PromiseSettledResult<T>[]) =>
  results.filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled').map((r) => r.value);

const rejected = (results: PromiseSettledResult<unknown>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);

const addresses = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => derive('evm', from + i)).sort();

/**
 * The Store contract on orders under concurrent calls (../store/orders.ts): creation stays
 * idempotent and every deposit address goes to one order, transitions of one order version have
 * one winner. It runs inside ordersContract.
 */
export function ordersRacesContract(): void {
  it('creates one order for 20 concurrent requests with the same orderId, taking one pool address', async () => {
    await store.addToDepositPool('evm', 3, derive, T0);
    const results = await together(20, () => create('SAME'));
    expect(rejected(results)).toEqual([]);
    const created = fulfilled(results);
    expect(created.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(created.map((r) => r.order.id)).size).toBe(1);
    expect(new Set(created.map((r) => r.order.address))).toEqual(new Set([derive('evm', 0)]));
    expect(new Set(created.map((r) => r.paramsKey))).toEqual(new Set(['params-SAME']));
    expect(await store.freeDepositAddressCount('evm')).toBe(2);
    // the losers left the pool as it was: the next order takes the next address
    expect((await create('NEXT')).order.address).toBe(derive('evm', 1));
  });

  it('derives one address for 20 concurrent requests with the same orderId on an empty pool', async () => {
    const results = await together(20, () => create('SAME'));
    expect(rejected(results)).toEqual([]);
    const created = fulfilled(results);
    expect(created.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(created.map((r) => r.order.address))).toEqual(new Set([derive('evm', 0)]));
    // no index was used up by the losers: the pool continues right after
    await store.addToDepositPool('evm', 1, derive, T0);
    expect((await create('NEXT')).order.address).toBe(derive('evm', 1));
  });

  it('gives 20 concurrent orders 20 addresses: the pool first, then new indexes without gaps', async () => {
    await store.addToDepositPool('evm', 5, derive, T0);
    const results = await together(20, (i) => create(`C-${i}`));
    expect(rejected(results)).toEqual([]);
    const created = fulfilled(results);
    expect(created.every((r) => r.created)).toBe(true);
    expect(created.map((r) => r.order.address).sort()).toEqual(addresses(0, 20));
    expect(await store.freeDepositAddressCount('evm')).toBe(0);
    const stored = await store.ordersByIds(created.map((r) => r.order.id));
    expect([...stored.values()].map((o) => o.address).sort()).toEqual(addresses(0, 20));
  });

  it('never derives an index twice when pool refills and orders on an empty pool run at once', async () => {
    const results = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => store.addToDepositPool('evm', 3, derive, T0)),
      ...Array.from({ length: 5 }, (_, i) => create(`D-${i}`)),
    ]);
    expect(rejected(results)).toEqual([]);
    // an order that ran after a refill took a pool address, one that ran before derived its own
    const free = await store.freeDepositAddressCount('evm');
    expect(free).toBeGreaterThanOrEqual(10);
    expect(free).toBeLessThanOrEqual(15);
    // drain the pool: every index derived went to exactly one order, none skipped
    for (let i = 0; i < free; i++) await create(`E-${i}`);
    const all = await store.listOrdersPage({ filter: { merchantId: 'mch_a' }, after: null, limit: 100 });
    expect(all.orders.map((o) => o.address).sort()).toEqual(addresses(0, 5 + free));
    expect(await store.freeDepositAddressCount('evm')).toBe(0);
  });

  it('lets exactly one of 10 concurrent transitions of the same order version win', async () => {
    const { order } = await create('A-1');
    const moves: Order['status'][] = ['PENDING', 'EXPIRED', 'FAILED'];
    const results = await together(10, (i) =>
      store.applyOrderTransitions(
        [{ order, patch: { status: moves[i % 3] as Order['status'], receivedBase: BigInt(i + 1) } }],
        T0 + 1,
      ),
    );
    const winners = fulfilled(results).flat();
    expect(winners).toHaveLength(1);
    const losers = rejected(results);
    expect(losers).toHaveLength(9);
    for (const e of losers) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('state_conflict');
      expect((e as AppError).message).toBe('Order A-1 changed while it was being updated.');
    }
    const stored = await store.findOrderById(order.id);
    expect(stored?.status).toBe(winners[0]?.status);
    expect(stored?.receivedBase).toBe(winners[0]?.receivedBase);
    const events = await store.listWebhookEvents({ order: order.id, limit: 20 });
    expect(events).toHaveLength(1);
  });
}
