import { expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { cost, outcomes, sweep, sweepTx, warmPool } from './sweeping-fixtures.contract.ts';

/**
 * The Store contract on concurrent sweeping writes (../store/sweeping.ts): several processes (or pool
 * connections) race for the hot wallet, open a sweep of one address, or move one sweep; on SQLite the
 * calls are serialized, on PostgreSQL they really race. It runs inside sweepingContract.
 */
export function sweepingRacesContract(): void {
  const RACERS = 10;
  const holders = Array.from({ length: RACERS }, (_, i) => `process:${i}`);

  /** Each holder tries once, all at once; the winners' names. */
  const raceForLease = async (now: number) => {
    await warmPool(RACERS);
    const got = await Promise.all(
      holders.map((holder) => store.acquireWalletLease({ chain: 'ETH', holder, now, ttlMs: 1000 })),
    );
    return holders.filter((_, i) => got[i]);
  };

  it('lends a free hot wallet to exactly one of many processes asking at once', async () => {
    const winners = await raceForLease(T0);
    expect(winners.length).toBe(1);
    const [winner] = winners as [string];
    // the lease stored is the winner's: it renews, every other holder is still refused
    const again = await Promise.all(
      holders.map((holder) => store.acquireWalletLease({ chain: 'ETH', holder, now: T0 + 500, ttlMs: 1000 })),
    );
    expect(holders.filter((_, i) => again[i])).toEqual([winner]);
    // the other chains' leases are apart
    expect(await store.acquireWalletLease({ chain: 'TRON', holder: 'process:x', now: T0, ttlMs: 1000 })).toBe(
      true,
    );
  });

  it('hands an expired hot-wallet lease to exactly one of many processes asking at once', async () => {
    expect(await store.acquireWalletLease({ chain: 'ETH', holder: 'crashed', now: T0, ttlMs: 1000 })).toBe(
      true,
    );
    expect(await raceForLease(T0 + 999)).toEqual([]);
    const winners = await raceForLease(T0 + 1000);
    expect(winners.length).toBe(1);
    expect(
      await store.acquireWalletLease({ chain: 'ETH', holder: 'crashed', now: T0 + 1001, ttlMs: 1000 }),
    ).toBe(false);
    // the crashed holder's late release does not free the winner's lease
    await store.releaseWalletLease({ chain: 'ETH', holder: 'crashed' });
    expect(await raceForLease(T0 + 1002)).toEqual(winners);
  });

  it('opens one sweep of an address and token when many are planned at once', async () => {
    await warmPool(RACERS);
    const settled = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) => store.insertSweep(sweep(`swp_${i}`, { createdAt: T0 + i }))),
    );
    const { won, refused } = outcomes(settled);
    expect(won).toBe(1);
    expect(refused).toEqual(Array(RACERS - 1).fill('state_conflict'));
    const open = await store.openSweeps('ETH');
    expect(open.length).toBe(1);
    const winner = settled.findIndex((s) => s.status === 'fulfilled');
    expect(open[0]?.id).toBe(`swp_${winner}`);
  });

  it('moves a sweep from one state once when many processes move it at once, with only the winner’s transaction', async () => {
    await store.insertSweep(sweep('swp_1'));
    await warmPool(RACERS);
    const settled = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) =>
        store.recordSweepStep({
          step: { id: 'swp_1', from: 'planned', to: 'gas_sent', error: `racer ${i}` },
          newTxs: [sweepTx(`t${i}`, 'swp_1', { nonce: 10 + i })],
          costs: [cost('swp_1', { txHash: `0xc${i}` })],
          now: T0 + 1,
        }),
      ),
    );
    const { won, refused } = outcomes(settled);
    expect(won).toBe(1);
    expect(refused).toEqual(Array(RACERS - 1).fill('state_conflict'));
    const winner = settled.findIndex((s) => s.status === 'fulfilled');
    expect(await store.findSweep('swp_1')).toMatchObject({ status: 'gas_sent', error: `racer ${winner}` });
    expect((await store.sweepTxsOf('swp_1')).map((t) => t.id)).toEqual([`t${winner}`]);
    expect((await store.sumOperatorCosts()).map((c) => c.count)).toEqual([1]);
  });

  it('records one transaction per nonce of a sender, and each cost once, when many are recorded at once', async () => {
    for (let i = 0; i < RACERS; i++) await store.insertSweep(sweep(`swp_${i}`, { address: `0xd${i}` }));
    await warmPool(RACERS);
    const settled = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) =>
        store.recordSweepStep({
          newTxs: [sweepTx(`t${i}`, `swp_${i}`, { nonce: 42, toAddress: `0xd${i}` })],
          costs: [cost(`swp_${i}`, { txHash: '0xsame' })],
          now: T0 + 1,
        }),
      ),
    );
    const { won, refused } = outcomes(settled);
    expect(won).toBe(1);
    expect(refused).toEqual(Array(RACERS - 1).fill('state_conflict'));
    expect((await store.sweepSpendsFrom({ chain: 'ETH', from: '0xhot', nonce: 42 })).length).toBe(1);
    // costs alone, for one transaction and kind, at once: written once
    await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        store.recordSweepStep({ costs: [cost(`swp_${i}`, { txHash: '0xonce' })], now: T0 + 2 }),
      ),
    );
    expect((await store.sumOperatorCosts()).map((c) => [c.count, c.amountBase])).toEqual([[2, 1400n]]);
  });
}
