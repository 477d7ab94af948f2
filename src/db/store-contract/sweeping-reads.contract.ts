import { expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { cost, sweep, sweepTx } from './sweeping-fixtures.contract.ts';

/** The Store contract on reading sweeps, their transactions and totals (../store/sweeping.ts); it runs inside sweepingContract. */
export function sweepingReadsContract(): void {
  it('lists open sweeps of a chain oldest first, and sweeps newest first by status, chain and limit', async () => {
    await store.insertSweep(sweep('swp_b', { address: '0xb', createdAt: T0 + 2 }));
    await store.insertSweep(sweep('swp_a', { address: '0xa', createdAt: T0 + 1 }));
    await store.insertSweep(sweep('swp_c', { address: '0xc', createdAt: T0 + 3 }));
    await store.insertSweep(sweep('swp_t', { chain: 'TRON', address: 'Ta', createdAt: T0 + 4 }));
    await store.recordSweepStep({ step: { id: 'swp_a', from: 'planned', to: 'gas_sent' }, now: T0 + 5 });
    await store.recordSweepStep({ step: { id: 'swp_c', from: 'planned', to: 'final' }, now: T0 + 6 });
    await store.recordSweepStep({ step: { id: 'swp_t', from: 'planned', to: 'failed' }, now: T0 + 7 });
    expect((await store.openSweeps('ETH')).map((s) => s.id)).toEqual(['swp_a', 'swp_b']);
    expect(await store.openSweeps('TRON')).toEqual([]);
    expect((await store.listSweeps()).map((s) => s.id)).toEqual(['swp_t', 'swp_c', 'swp_b', 'swp_a']);
    expect((await store.listSweeps({ chain: 'ETH' })).map((s) => s.id)).toEqual(['swp_c', 'swp_b', 'swp_a']);
    expect((await store.listSweeps({ status: 'failed' })).map((s) => s.id)).toEqual(['swp_t']);
    expect((await store.listSweeps({ status: 'failed', chain: 'ETH' })).map((s) => s.id)).toEqual([]);
    expect((await store.listSweeps({ limit: 2 })).map((s) => s.id)).toEqual(['swp_t', 'swp_c']);
  });

  it("gives a sweep's transactions in signing order, and the sender's transactions that may share a slot", async () => {
    await store.insertSweep(sweep('swp_1'));
    await store.insertSweep(sweep('swp_2', { address: '0xsecond' }));
    // the top-up, then in one later step the transfer and (another sweep) a top-up at a new nonce
    await store.recordSweepStep({ newTxs: [sweepTx('t1', 'swp_1', { nonce: 4 })], now: T0 + 1 });
    await store.recordSweepStep({
      newTxs: [
        sweepTx('t2', 'swp_1', { role: 'transfer', fromAddress: '0xdeposit', toAddress: '0xhot', nonce: 0 }),
        sweepTx('t3', 'swp_2', { nonce: 5, toAddress: '0xsecond' }),
      ],
      now: T0 + 2,
    });
    await store.recordSweepStep({ newTxs: [sweepTx('t4', 'swp_2', { nonce: 6 })], now: T0 + 3 });
    expect((await store.sweepTxsOf('swp_1')).map((t) => t.id)).toEqual(['t1', 't2']);
    expect((await store.sweepTxsOf('swp_2')).map((t) => t.id)).toEqual(['t3', 't4']);
    expect(await store.sweepTxsOf('swp_none')).toEqual([]);
    const spends = async (input: { from: string; nonce: number | null; except?: string; limit?: number }) =>
      (await store.sweepSpendsFrom({ chain: 'ETH', ...input })).map((t) => t.id);
    expect(await spends({ from: '0xhot', nonce: 5 })).toEqual(['t3']);
    expect(await spends({ from: '0xhot', nonce: 5, except: 't3' })).toEqual([]);
    expect(await spends({ from: '0xhot', nonce: null })).toEqual(['t4', 't3', 't1']);
    expect(await spends({ from: '0xhot', nonce: null, except: 't4', limit: 1 })).toEqual(['t3']);
    expect(await spends({ from: '0xdeposit', nonce: null })).toEqual(['t2']);
    expect(await store.sweepSpendsFrom({ chain: 'TRON', from: '0xhot', nonce: null })).toEqual([]);
  });

  it('puts a transaction signed in the same millisecond as the dead one it replaces after it', async () => {
    await store.insertSweep(sweep('swp_1'));
    const transfer = (id: string, nonce: number) =>
      sweepTx(id, 'swp_1', { role: 'transfer', fromAddress: '0xdeposit', toAddress: '0xhot', nonce });
    // one clock reading for the whole sweep (ids sort against the order they were signed in)
    await store.recordSweepStep({ newTxs: [sweepTx('tz_gas', 'swp_1')], now: T0 });
    await store.recordSweepStep({ newTxs: [transfer('tz', 0)], now: T0 });
    await store.recordSweepStep({ txs: [{ id: 'tz', status: 'dropped' }], now: T0 });
    await store.recordSweepStep({ newTxs: [transfer('ta', 1)], now: T0 });
    expect((await store.sweepTxsOf('swp_1')).map((t) => t.id)).toEqual(['tz_gas', 'tz', 'ta']);
  });

  it('counts sweeps by status per chain and token, and adds up exactly what final ones moved', async () => {
    // 2^64 + 1 base units: a float would lose the last unit
    const big = (2n ** 64n + 1n).toString();
    await store.insertSweep(sweep('swp_1', { address: '0x1', amountBase: big }));
    await store.insertSweep(sweep('swp_2', { address: '0x2', amountBase: big }));
    await store.insertSweep(sweep('swp_3', { address: '0x3', amountBase: '999' }));
    await store.insertSweep(sweep('swp_4', { address: '0x4', amountBase: '5' }));
    await store.insertSweep(sweep('swp_5', { chain: 'TRON', address: 'T5', amountBase: '7' }));
    await store.recordSweepStep({ step: { id: 'swp_1', from: 'planned', to: 'final' }, now: T0 + 1 });
    await store.recordSweepStep({ step: { id: 'swp_2', from: 'planned', to: 'final' }, now: T0 + 1 });
    await store.recordSweepStep({ step: { id: 'swp_3', from: 'planned', to: 'failed' }, now: T0 + 1 });
    const totals = await store.sweepTotals();
    const byKey = new Map(totals.map((t) => [`${t.chain}/${t.symbol}`, t]));
    expect(byKey.size).toBe(2);
    expect(byKey.get('ETH/USDT')).toEqual({
      chain: 'ETH',
      symbol: 'USDT',
      decimals: 6,
      counts: new Map([
        ['final', 2],
        ['failed', 1],
        ['planned', 1],
      ]),
      sweptBase: 2n ** 65n + 2n,
    });
    expect(byKey.get('TRON/USDT')).toMatchObject({ counts: new Map([['planned', 1]]), sweptBase: 0n });
    expect(await store.sweepTotals().then((t) => t.length)).toBe(2);
  });

  it('sums operator costs exactly per chain and kind, ordered by chain and kind', async () => {
    await store.insertSweep(sweep('swp_1'));
    const big = (2n ** 70n).toString();
    await store.recordSweepStep({
      costs: [
        cost('swp_1', {
          chain: 'TRON',
          kind: 'energy',
          symbol: 'TRX',
          decimals: 6,
          txHash: 'x1',
          amountBase: '3',
        }),
        cost('swp_1', { txHash: '0xa', kind: 'sweep_fee', amountBase: big }),
        cost('swp_1', { txHash: '0xa', amountBase: big }),
        cost('swp_1', { txHash: '0xb', amountBase: '1' }),
      ],
      now: T0 + 1,
    });
    expect(await store.sumOperatorCosts()).toEqual([
      { chain: 'ETH', kind: 'gas_topup', symbol: 'ETH', decimals: 18, amountBase: 2n ** 70n + 1n, count: 2 },
      { chain: 'ETH', kind: 'sweep_fee', symbol: 'ETH', decimals: 18, amountBase: 2n ** 70n, count: 1 },
      { chain: 'TRON', kind: 'energy', symbol: 'TRX', decimals: 6, amountBase: 3n, count: 1 },
    ]);
  });
}
