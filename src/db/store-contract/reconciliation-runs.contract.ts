import { expect, it } from 'vitest';
import type { ReconciliationRun } from '../store.ts';
import { store, T0 } from './context.ts';
import { warmPool } from './sweeping-fixtures.contract.ts';

/** The Store contract on storing reconciliation runs whole (../store/reconciliation.ts); it runs inside reconciliationContract. */
export function reconciliationRunsContract(): void {
  const run = (id: string, finishedAt: number, over: Partial<ReconciliationRun> = {}): ReconciliationRun => ({
    id,
    startedAt: finishedAt - 5,
    finishedAt,
    chains: ['ETH'],
    addresses: 1,
    unexplained: 0,
    report: `{"run":"${id}"}`,
    ...over,
  });

  it('stores a run with its floats and fees whole, or nothing of it when a part is refused', async () => {
    const huge = 2n ** 80n + 1n;
    await store.recordReconciliation({
      run: run('rec_1', T0 + 10, { chains: [], addresses: 0 }),
      floats: [
        { chain: 'ETH', address: '0xhot', symbol: 'ETH', floatBase: 1n },
        { chain: 'ETH', address: '0xhot', symbol: 'ETH', floatBase: huge },
      ],
      txFees: [{ chain: 'ETH', txHash: '0xf1', feeBase: huge }],
    });
    // the last float given for a wallet wins; values beyond 2^53 stay exact
    expect(await store.walletFloatsOf('ETH')).toEqual([
      { chain: 'ETH', address: '0xhot', symbol: 'ETH', floatBase: huge, updatedAt: T0 + 10 },
    ]);
    expect(await store.lastReconciliation()).toEqual(run('rec_1', T0 + 10, { chains: [], addresses: 0 }));
    // a run id already stored: refused, and the float and fee it carried are not written either
    await expect(
      store.recordReconciliation({
        run: run('rec_1', T0 + 20),
        floats: [{ chain: 'ETH', address: '0xhot', symbol: 'ETH', floatBase: 2n }],
        txFees: [{ chain: 'ETH', txHash: '0xf2', feeBase: 2n }],
      }),
    ).rejects.toThrow();
    expect((await store.walletFloatsOf('ETH'))[0]?.floatBase).toBe(huge);
    expect(await store.cachedTxFees('ETH')).toEqual(new Map([['0xf1', huge]]));
    // the latest run is the one that finished last, whatever order they were stored in
    await store.recordReconciliation({ run: run('rec_3', T0 + 30), floats: [], txFees: [] });
    await store.recordReconciliation({ run: run('rec_2', T0 + 25), floats: [], txFees: [] });
    expect((await store.lastReconciliation())?.id).toBe('rec_3');
    // of runs finished in the same millisecond, the one stored last
    await store.recordReconciliation({ run: run('rec_z', T0 + 40), floats: [], txFees: [] });
    await store.recordReconciliation({ run: run('rec_a', T0 + 40), floats: [], txFees: [] });
    expect((await store.lastReconciliation())?.id).toBe('rec_a');
    await store.recordReconciliation({ run: run('rec_m', T0 + 40), floats: [], txFees: [] });
    expect((await store.lastReconciliation())?.id).toBe('rec_m');
  });

  it('keeps each run whole when many are stored at once: every float comes from one run, each fee from its first', async () => {
    const RUNS = 10;
    const wallets = ['0xw0', '0xw1', '0xw2', '0xw3', '0xw4'];
    await warmPool(RUNS);
    await Promise.all(
      Array.from({ length: RUNS }, (_, i) => {
        // half the runs write the wallets in the other order, as two processes well might
        const order = i % 2 === 0 ? wallets : [...wallets].reverse();
        return store.recordReconciliation({
          run: run(`rec_${i}`, T0 + 100 + i),
          floats: order.map((address) => ({
            chain: 'ETH',
            address,
            symbol: 'USDT',
            floatBase: BigInt(1000 + i),
          })),
          txFees: wallets.map((_, k) => ({ chain: 'ETH', txHash: `0xfee${k}`, feeBase: BigInt(10 * i + k) })),
        });
      }),
    );
    expect((await store.lastReconciliation())?.id).toBe(`rec_${RUNS - 1}`);
    const floats = await store.walletFloatsOf('ETH');
    expect(floats.map((f) => f.address)).toEqual(wallets);
    const [first] = floats;
    const last = (first?.updatedAt ?? 0) - (T0 + 100);
    expect(last).toBeGreaterThanOrEqual(0);
    expect(last).toBeLessThan(RUNS);
    // one run wrote every float last: the same run's time and value on each wallet
    for (const f of floats)
      expect([f.updatedAt, f.floatBase]).toEqual([T0 + 100 + last, BigInt(1000 + last)]);
    const fees = await store.cachedTxFees('ETH');
    expect(fees.size).toBe(wallets.length);
    // every fee as the first run to store it gave it (10 × run + the hash's index): one run, never a mix
    const runs = [...fees].map(([hash, fee]) => (Number(fee) - Number(hash.slice(-1))) / 10);
    expect(new Set(runs).size).toBe(1);
    expect(runs[0]).toBeLessThan(RUNS);
  });
}
