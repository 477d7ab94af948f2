import { expect, it } from 'vitest';
import { store, T0 } from './context.ts';

/**
 * The Store contract on the worker lease (../store/worker-leases.ts); it runs inside storeContract's
 * describe. What a PostgreSQL implementation must keep: a lease runs until `expiresAt` and is taken
 * over from `expiresAt` on (`expiresAt <= now`), a refusal writes nothing and names the holder, a
 * renewal keeps `acquiredAt`, only the holder releases, and of concurrent acquirers exactly one wins.
 */
export function workerLeasesContract(): void {
  const TTL = 6000;
  const take = (holder: string, now: number, name = 'worker') =>
    store.acquireWorkerLease({ name, holder, now, ttlMs: TTL });

  it('grants a free worker lease and stores who holds it, since when and until when', async () => {
    expect(await store.findWorkerLease('worker')).toBeNull();
    const lease = await take('host-a:1:aa', T0);
    expect(lease).toEqual({ name: 'worker', holder: 'host-a:1:aa', acquiredAt: T0, expiresAt: T0 + TTL });
    expect(await store.findWorkerLease('worker')).toEqual(lease);
  });

  it('refuses another holder while the lease runs, writing nothing and naming the holder', async () => {
    const held = await take('host-a:1:aa', T0);
    for (const now of [T0, T0 + 1, T0 + TTL - 1]) {
      expect(await take('host-b:2:bb', now)).toEqual(held);
    }
    expect(await store.findWorkerLease('worker')).toEqual(held);
  });

  it('lets another holder take the lease over once it has run out, from expiresAt on', async () => {
    await take('host-a:1:aa', T0);
    const taken = await take('host-b:2:bb', T0 + TTL);
    expect(taken).toEqual({
      name: 'worker',
      holder: 'host-b:2:bb',
      acquiredAt: T0 + TTL,
      expiresAt: T0 + 2 * TTL,
    });
    // the former holder is now the one refused, even though it held the lease a moment ago
    expect(await take('host-a:1:aa', T0 + TTL + 1)).toEqual(taken);
  });

  it('renews the lease for its holder, keeping when it was taken, even after it ran out unclaimed', async () => {
    await take('host-a:1:aa', T0);
    expect(await take('host-a:1:aa', T0 + 2000)).toEqual({
      name: 'worker',
      holder: 'host-a:1:aa',
      acquiredAt: T0,
      expiresAt: T0 + 2000 + TTL,
    });
    // nobody took it while the holder was away: its renewal still counts
    expect(await take('host-a:1:aa', T0 + 60_000)).toMatchObject({
      acquiredAt: T0,
      expiresAt: T0 + 60_000 + TTL,
    });
  });

  it('is released only by its holder, and is free at once when released', async () => {
    const held = await take('host-a:1:aa', T0);
    expect(await store.releaseWorkerLease({ name: 'worker', holder: 'host-b:2:bb' })).toBe(false);
    expect(await store.findWorkerLease('worker')).toEqual(held);
    expect(await store.releaseWorkerLease({ name: 'worker', holder: 'host-a:1:aa' })).toBe(true);
    expect(await store.findWorkerLease('worker')).toBeNull();
    expect(await store.releaseWorkerLease({ name: 'worker', holder: 'host-a:1:aa' })).toBe(false);
    // long before the released lease would have run out, another holder takes it
    expect(await take('host-b:2:bb', T0 + 1)).toMatchObject({ holder: 'host-b:2:bb', acquiredAt: T0 + 1 });
  });

  it('keeps leases of different names apart', async () => {
    await take('host-a:1:aa', T0, 'worker');
    expect(await take('host-b:2:bb', T0, 'other')).toMatchObject({ name: 'other', holder: 'host-b:2:bb' });
    expect(await store.findWorkerLease('worker')).toMatchObject({ holder: 'host-a:1:aa' });
  });

  it('grants a free lease to exactly one of several holders asking at once', async () => {
    const holders = Array.from({ length: 8 }, (_, i) => `host-${i}:${i}:00`);
    const answers = await Promise.all(holders.map((h) => take(h, T0)));
    const winners = new Set(answers.map((a) => a.holder));
    expect(winners.size).toBe(1);
    const [winner] = [...winners];
    expect(holders).toContain(winner);
    expect(await store.findWorkerLease('worker')).toMatchObject({ holder: winner, expiresAt: T0 + TTL });
  });
}
