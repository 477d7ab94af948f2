import { expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import type { NewOrder, OrderFilter } from '../store.ts';
import { collection, derive, store, T0, transfer } from './context.ts';

/** A collection of mch_a created at `at` (its own deposit address). */
const collect = async (orderId: string, at: number, over: Partial<NewOrder> = {}) =>
  (await store.createOrder({ order: collection('mch_a', orderId, over), family: 'evm', derive, now: at }))
    .order;

/** A payout of mch_a from the hot wallet, created at `at`. */
const payout = async (orderId: string, at: number, over: Partial<NewOrder> = {}) =>
  (
    await store.createOrder({
      order: collection('mch_a', orderId, {
        type: 'PAYOUT',
        address: '0xhot',
        receiveAddress: `0xdest-${orderId}`,
        ...over,
      }),
      family: null,
      derive,
      now: at,
    })
  ).order;

/** Every page of a listing of `limit` orders, followed through `next`. */
async function allPages(filter: OrderFilter, limit: number, search?: string[]): Promise<Order[][]> {
  const pages: Order[][] = [];
  let after = null;
  for (;;) {
    const page = await store.listOrdersPage({ filter, search, after, limit });
    expect(page.partial).toBe(false);
    pages.push(page.orders);
    if (!page.next) return pages;
    after = page.next;
  }
}

const newestFirst = (orders: Order[]) =>
  [...orders].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
const ids = (orders: Order[]) => orders.map((o) => o.id);

/** The Store contract on the dashboard's order lists and totals (../store/orders.ts); it runs inside ordersContract. */
export function ordersListsContract(): void {
  it('lists orders newest first, page by page, narrowed by filters and found by any of their ids', async () => {
    const made: Order[] = [];
    for (let i = 0; i < 5; i++) made.push(await collect(`L-${i}`, T0 + i * 1000));
    // two orders of the same millisecond: the id breaks the tie
    made.push(await collect('L-5', T0 + 10_000), await collect('L-6', T0 + 10_000));
    const tron = await store.createOrder({
      order: collection('mch_a', 'T-1', { chain: 'TRON' }),
      family: 'tron',
      derive,
      now: T0 + 2500,
    });
    made.push(tron.order);
    const out = await payout('P-1', T0 + 3500, { uid: 'user-7', chain: 'BSC' });
    made.push(out);

    const pages = await allPages({}, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 3]);
    expect(ids(pages.flat())).toEqual(ids(newestFirst(made)));
    expect(pages.flat()[0]).toEqual(newestFirst(made)[0]); // whole orders, not only their ids

    const [, l1, l2, l3] = made as [Order, Order, Order, Order];
    await store.applyOrderTransitions([{ order: l1, patch: { status: 'PENDING' } }], T0 + 20_000);
    const only = async (filter: OrderFilter) => ids((await allPages(filter, 2)).flat());
    expect(await only({ status: 'PENDING' })).toEqual([l1.id]);
    expect(await only({ status: ['PENDING', 'SUCCESS'] })).toEqual([l1.id]);
    expect(await only({ chain: 'TRON' })).toEqual([tron.order.id]);
    expect(await only({ type: 'PAYOUT' })).toEqual([out.id]);
    expect(await only({ chain: 'BSC', type: 'COLLECTION' })).toEqual([]);
    expect(await only({ merchantId: 'mch_b' })).toEqual([]);
    expect(await only({ symbol: 'USDC' })).toEqual([]);
    expect(await only({ from: T0 + 1000, to: T0 + 3000, type: 'COLLECTION' })).toEqual(
      ids(newestFirst([l1, l2, tron.order])),
    );

    // search: internal id, orderId, deposit address, uid, payout destination, a paying transaction
    await store.recordScan({
      chain: 'ETH',
      transfers: [transfer('trf_s', { toAddress: l3.address, orderRef: l3.id, unattributedReason: null })],
      statusChanges: [],
      transitions: [],
      cursor: null,
      now: T0,
    });
    const found = async (...terms: string[]) => ids((await allPages({}, 2, terms)).flat());
    expect(await found(l1.id)).toEqual([l1.id]);
    expect(await found('L-2')).toEqual([l2.id]);
    expect(await found(tron.order.address)).toEqual([tron.order.id]);
    expect(await found('user-7')).toEqual([out.id]);
    expect(await found('0xdest-P-1')).toEqual([out.id]);
    expect(await found('0xtx-trf_s')).toEqual([l3.id]);
    expect(await found('L-2', '0xtx-trf_s', 'nothing')).toEqual(ids(newestFirst([l2, l3])));
    expect(await found('l-2')).toEqual([]); // exact, as the interface's ids are
    expect(ids((await allPages({ status: 'INIT' }, 5, ['L-1', 'L-2'])).flat())).toEqual([l2.id]);
  });

  it('slices order statistics oldest first and counts the open orders by type and status', async () => {
    const a = await collect('S-1', T0 + 1);
    const b = await collect('S-2', T0 + 2);
    const c = await payout('S-3', T0 + 3, { amount: '1.5', amountBase: 1_500_000n });
    await collect('S-0', T0 - 1); // before `since`
    await store.applyOrderTransitions(
      [{ order: a, patch: { status: 'SUCCESS', actualAmountBase: 10_000_001n } }],
      T0 + 10,
    );
    const first = await store.orderStatsSlice({ since: T0, after: null, limit: 2 });
    expect(first.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(first[0]).toEqual({
      createdAt: T0 + 1,
      id: a.id,
      type: 'COLLECTION',
      chain: 'ETH',
      symbol: 'USDT',
      status: 'SUCCESS',
      decimals: 6,
      amountBase: '10000000',
      actualAmountBase: '10000001',
    });
    const last = first[1] as { createdAt: number; id: string };
    const second = await store.orderStatsSlice({ since: T0, after: last, limit: 2 });
    expect(second.map((r) => [r.id, r.type, r.amountBase, r.actualAmountBase])).toEqual([
      [c.id, 'PAYOUT', '1500000', null],
    ]);
    const counts = (await store.openOrderCounts()).sort((x, y) =>
      `${x.type}${x.status}`.localeCompare(`${y.type}${y.status}`),
    );
    expect(counts).toEqual([
      { type: 'COLLECTION', status: 'INIT', n: 2 },
      { type: 'PAYOUT', status: 'INIT', n: 1 },
    ]);
  });

  it('tells the token of an order, or null for an unknown one', async () => {
    const o = await collect('K-1', T0, { decimals: 18, tokenContract: '0xtoken' });
    const native = await collect('K-2', T0, { decimals: 18, tokenContract: null, symbol: 'ETH' });
    expect(await store.findOrderToken(o.id)).toEqual({ decimals: 18, tokenContract: '0xtoken' });
    expect(await store.findOrderToken(native.id)).toEqual({ decimals: 18, tokenContract: null });
    expect(await store.findOrderToken('ord_nope')).toBeNull();
  });

  it('finds the orders due to expire: INIT payouts, and collections only on chains scanned past their expiry', async () => {
    const due = await collect('X-1', T0, { expiresAt: T0 + 1000 });
    const paying = await collect('X-2', T0, { expiresAt: T0 + 900 });
    await store.applyOrderTransitions([{ order: paying, patch: { status: 'PENDING' } }], T0);
    const unscanned = await collect('X-3', T0, { expiresAt: T0 + 5000 });
    await store.createOrder({
      order: collection('mch_a', 'X-4', { chain: 'TRON', expiresAt: T0 + 100 }),
      family: 'tron',
      derive,
      now: T0,
    });
    const queued = await payout('X-5', T0, { expiresAt: T0 + 500 });
    const sent = await payout('X-6', T0, { expiresAt: T0 + 400 });
    await store.applyOrderTransitions([{ order: sent, patch: { status: 'PENDING' } }], T0);
    const scanned = new Map([['ETH', T0 + 2000]]);
    const expirable = async (now: number, limit: number, upTo: ReadonlyMap<string, number> = scanned) =>
      ids(await store.findExpirableOrders(now, limit, upTo));
    expect(await expirable(T0 + 10_000, 10)).toEqual([queued.id, paying.id, due.id]);
    expect(await expirable(T0 + 10_000, 2)).toEqual([queued.id, paying.id]);
    expect(await expirable(T0 + 950, 10)).toEqual([queued.id, paying.id]);
    expect(await expirable(T0 + 10_000, 10, new Map())).toEqual([queued.id]);
    expect(await expirable(T0 + 10_000, 10, new Map([['ETH', T0 + 6000]]))).toContain(unscanned.id);
  });

  it('adds up the final transfers slice by slice, each exactly once', async () => {
    const o = await collect('F-1', T0);
    const writes = [
      transfer('trf_a', { status: 'final', orderRef: o.id, unattributedReason: null, amountBase: 1n }),
      transfer('trf_b', { status: 'final', amountBase: 2n }),
      transfer('trf_c', { status: 'pending', amountBase: 4n }),
      transfer('trf_d', { status: 'final', symbol: 'ETH', tokenContract: null, amountBase: 8n }),
      transfer('trf_e', { status: 'failed', amountBase: 16n }),
      transfer('trf_f', { status: 'final', orderRef: o.id, unattributedReason: null, amountBase: 32n }),
      transfer('trf_g', { status: 'final', amountBase: 10n ** 30n }),
    ];
    await store.recordScan({
      chain: 'ETH',
      transfers: writes,
      statusChanges: [],
      transitions: [],
      cursor: null,
      now: T0,
    });
    const seen: { id: string; amountBase: string; unattributed: boolean; tokenContract: string | null }[] =
      [];
    let after = null;
    for (let i = 0; i < 10; i++) {
      const slice = await store.finalTransfersSlice({ after, limit: 2 });
      expect(slice.rows.length).toBeLessThanOrEqual(2);
      seen.push(
        ...slice.rows.map(({ id, amountBase, unattributed, tokenContract }) => ({
          id,
          amountBase,
          unattributed,
          tokenContract,
        })),
      );
      if (!slice.next) break;
      after = slice.next;
    }
    expect(seen.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: 'trf_a', amountBase: '1', unattributed: false, tokenContract: writes[0]?.tokenContract },
      { id: 'trf_b', amountBase: '2', unattributed: true, tokenContract: writes[0]?.tokenContract },
      { id: 'trf_d', amountBase: '8', unattributed: true, tokenContract: null },
      { id: 'trf_f', amountBase: '32', unattributed: false, tokenContract: writes[0]?.tokenContract },
      {
        id: 'trf_g',
        amountBase: (10n ** 30n).toString(),
        unattributed: true,
        tokenContract: writes[0]?.tokenContract,
      },
    ]);
  });
}
