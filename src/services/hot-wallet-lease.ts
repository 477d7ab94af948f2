import type { Deps } from './deps.ts';

/** How long a holder may keep a chain's hot wallet without renewing (a crashed holder frees it this way). */
export const WALLET_LEASE_MS = 60_000;

/**
 * Runs `fn` holding the chain's hot-wallet lease, so payouts and sweeps in different processes (the
 * worker, `kassa sweeps run`) never sign from the same wallet at once; `fn` gets a `renew` to call
 * between long steps. Returns null without running `fn` when another holder has the lease.
 */
export async function withHotWallet<T>(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { chain: string; holder: string },
  fn: (renew: () => Promise<void>) => Promise<T>,
): Promise<T | null> {
  const take = () => deps.db.acquireWalletLease({ ...input, now: deps.clock.now(), ttlMs: WALLET_LEASE_MS });
  if (!(await take())) return null;
  try {
    return await fn(async () => {
      await take();
    });
  } finally {
    await deps.db.releaseWalletLease(input);
  }
}
