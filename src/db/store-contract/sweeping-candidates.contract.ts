import { expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import type { SweepCandidate, TransferWrite } from '../store.ts';
import { create, derive, store, T0, transfer } from './context.ts';
import { scanned, sweep } from './sweeping-fixtures.contract.ts';

/** The Store contract on which deposit addresses may be swept (../store/sweeping.ts); it runs inside sweepingContract. */
export function sweepCandidatesContract(): void {
  const USDT = '0x00000000000000000000000000000000000000aa';
  let n = 0;
  const paid = (to: string, amountBase: bigint, over: Partial<TransferWrite> = {}) =>
    transfer(`trf_${++n}`, { toAddress: to, amountBase, status: 'final', unattributedReason: null, ...over });
  const finish = (order: Order) =>
    store.applyOrderTransitions([{ order, patch: { status: 'EXPIRED' } }], T0 + 1);
  const candidates = async (chain = 'ETH', family: 'evm' | 'tron' | 'sui' = 'evm') =>
    (await store.sweepCandidates({ chain, family })).sort((a, b) =>
      `${a.address}/${a.symbol}`.localeCompare(`${b.address}/${b.symbol}`),
    );
  const candidate = (order: Order, symbol: string, unsweptBase: bigint): SweepCandidate => ({
    address: order.address,
    depositIndex: Number(order.address.split('-').pop()),
    symbol,
    tokenContract: symbol === 'USDT' ? USDT : null,
    unsweptBase,
  });

  it('offers what final deposits left on addresses whose order is final, less what final sweeps moved', async () => {
    const orders = new Map<string, Order>();
    for (const id of ['done', 'open', 'unfinal', 'sweeping', 'partly', 'swept'])
      orders.set(id, (await create(id)).order);
    const at = (id: string) => (orders.get(id) as Order).address;
    // an address of the pool that no order took, paid anyway (an unattributed deposit)
    await store.addToDepositPool('evm', 1, derive, T0);
    const pool = `evm-address-${orders.size}`;
    await scanned('ETH', {
      transfers: [
        paid(at('done'), 3_000_000n),
        paid(at('done'), 2_000_000n),
        paid(at('done'), 1n, { symbol: 'ETH', tokenContract: null }),
        paid(at('done'), 9n, { id: 'trf_gone', status: 'pending' }),
        paid(at('open'), 5_000_000n),
        paid(at('unfinal'), 5_000_000n),
        paid(at('unfinal'), 1_000_000n, { status: 'pending' }),
        paid(at('sweeping'), 5_000_000n),
        paid(at('partly'), 5_000_000n),
        paid(at('swept'), 5_000_000n),
        paid(pool, 7n, { unattributedReason: 'no_order' }),
        paid('0xnot-ours', 5_000_000n, { unattributedReason: 'no_order' }),
      ],
    });
    // a deposit that left the canonical chain neither counts nor blocks
    await scanned('ETH', { statusChanges: [{ id: 'trf_gone', status: 'orphaned' }] });
    for (const id of ['done', 'unfinal', 'sweeping', 'partly', 'swept'])
      await finish(orders.get(id) as Order);
    const swept = async (id: string, address: string, amountBase: string, to: 'final' | 'failed' | null) => {
      await store.insertSweep(sweep(id, { address, amountBase }));
      if (to) await store.recordSweepStep({ step: { id, from: 'planned', to }, now: T0 + 2 });
    };
    await swept('swp_open', at('sweeping'), '5000000', null);
    await swept('swp_part', at('partly'), '4000000', 'final');
    await swept('swp_fail', at('partly'), '1000000', 'failed');
    await swept('swp_all', at('swept'), '5000000', 'final');
    const done = orders.get('done') as Order;
    const partly = orders.get('partly') as Order;
    const expected = [
      candidate(done, 'ETH', 1n),
      candidate(done, 'USDT', 5_000_000n),
      candidate(partly, 'USDT', 1_000_000n),
      { address: pool, depositIndex: orders.size, symbol: 'USDT', tokenContract: USDT, unsweptBase: 7n },
    ].sort((a, b) => `${a.address}/${a.symbol}`.localeCompare(`${b.address}/${b.symbol}`));
    expect(await candidates()).toEqual(expected);
    // only the asked chain's transfers count, and only addresses of the asked family
    expect(await candidates('BSC')).toEqual([]);
    expect(await candidates('ETH', 'tron')).toEqual([]);
  });

  it('counts a deposit on another chain of the family at the same address for that chain only', async () => {
    const { order } = await create('A-1');
    await scanned('BSC', { transfers: [paid(order.address, 2n ** 64n + 1n, { chain: 'BSC' })] });
    await finish(order);
    expect(await candidates('BSC')).toEqual([candidate(order, 'USDT', 2n ** 64n + 1n)]);
    expect(await candidates('ETH')).toEqual([]);
  });
}
