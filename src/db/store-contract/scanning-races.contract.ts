import { expect, it } from 'vitest';
import type { AppError } from '../../domain/errors.ts';
import { create, derive, store, T0, transfer } from './context.ts';

const at = (height: number) => ({
  height,
  heightHash: `0xblock${height}`,
  heightTime: T0 / 1000,
  finalHeight: 90,
});

/** The Store contract on scan steps and the address pool under concurrent calls (../store/scanning.ts); it runs inside scanningContract. */
export function scanningRacesContract(): void {
  it('records one of 8 concurrent scan steps that move the same order, and nothing of the others', async () => {
    const { order } = await create('A-1');
    const steps = Array.from({ length: 8 }, (_, i) =>
      store.recordScan({
        chain: 'ETH',
        transfers: [
          transfer(`trf_${i}`, { toAddress: order.address, orderRef: order.id, unattributedReason: null }),
        ],
        statusChanges: [],
        transitions: [{ order, patch: { status: 'PENDING', receivedBase: BigInt(i + 1) } }],
        cursor: at(100 + i),
        blocks: [{ height: 100 + i, hash: `0xblock${100 + i}` }],
        now: T0 + i,
      }),
    );
    const results = await Promise.allSettled(steps);
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    const winner = won[0] as number;
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as AppError).code).toBe('state_conflict');
    }
    // the winner's step whole, the losers' not at all: no transfer, no checkpoint, no block, no event
    expect((await store.transfersOfChain('ETH')).map((t) => t.id)).toEqual([`trf_${winner}`]);
    expect(await store.getCursor('ETH')).toEqual({ chain: 'ETH', ...at(100 + winner) });
    expect(await store.unfinalBlocks('ETH')).toEqual([
      { height: 100 + winner, hash: `0xblock${100 + winner}` },
    ]);
    expect((await store.findOrderById(order.id))?.receivedBase).toBe(BigInt(winner + 1));
    expect(await store.listWebhookEvents({ order: order.id, limit: 20 })).toHaveLength(1);
  });

  it('leaves the blocks of one checkpoint, whole, after 8 concurrent scan steps of one chain', async () => {
    const cursor = (i: number) => ({ ...at(100 + 10 * i), finalHeight: 95 + 10 * i });
    const blocks = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, k) => ({ height: from + k, hash: `0xblock${from + k}` }));
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        store.recordScan({
          chain: 'ETH',
          transfers: [],
          statusChanges: [],
          transitions: [],
          cursor: cursor(i),
          blocks: blocks(cursor(i).finalHeight, cursor(i).height),
          now: T0 + i,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const last = await store.getCursor('ETH');
    if (!last) throw new Error('no checkpoint');
    expect(await store.unfinalBlocks('ETH')).toEqual(blocks(last.finalHeight, last.height));
  });

  it('records concurrent scan steps of different chains and orders all at once', async () => {
    const chains = ['ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN'] as const;
    const orders = await Promise.all(chains.map((chain) => create(`O-${chain}`, { chain })));
    const results = await Promise.allSettled(
      chains.map((chain, i) => {
        const order = orders[i]?.order;
        if (!order) throw new Error('no order');
        return store.recordScan({
          chain,
          transfers: [transfer(`trf_${chain}`, { chain, orderRef: order.id, unattributedReason: null })],
          statusChanges: [],
          transitions: [{ order, patch: { status: 'PENDING' } }],
          cursor: at(200),
          now: T0,
        });
      }),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    for (const chain of chains) {
      expect((await store.getCursor(chain))?.height).toBe(200);
      expect((await store.transfersOfChain(chain)).map((t) => t.id)).toEqual([`trf_${chain}`]);
    }
    const stored = await store.ordersByIds(orders.map((o) => o.order.id));
    expect([...stored.values()].map((o) => o.status)).toEqual(chains.map(() => 'PENDING'));
  });

  it('fills the pool from 10 concurrent refills with 20 indexes, each once', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => store.addToDepositPool('evm', 2, derive, T0)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await store.freeDepositAddressCount('evm')).toBe(20);
    expect(await store.freeDepositAddressCount('tron')).toBe(0);
    const taken: string[] = [];
    for (let i = 0; i < 20; i++) taken.push((await create(`P-${i}`)).order.address);
    expect(taken).toEqual(Array.from({ length: 20 }, (_, i) => derive('evm', i)));
    expect(await store.freeDepositAddressCount('evm')).toBe(0);
  });
}
