import { expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { sweepCandidatesContract } from './sweeping-candidates.contract.ts';
import { cost as costOf, sweep, sweepTx } from './sweeping-fixtures.contract.ts';
import { sweepingRacesContract } from './sweeping-races.contract.ts';
import { sweepingReadsContract } from './sweeping-reads.contract.ts';
import { sweepingStepsContract } from './sweeping-steps.contract.ts';

/** The Store contract on sweeps and their transactions, operator costs, the hot-wallet lease (../store/sweeping.ts); it runs inside storeContract's describe. */
export function sweepingContract(): void {
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
    const cost = costOf('swp_1');
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

  sweepingStepsContract();
  sweepingReadsContract();
  sweepCandidatesContract();
  sweepingRacesContract();
}
