import { and, eq } from 'drizzle-orm';
import { type Db, writeTransaction } from '../client.ts';
import { walletLeases } from '../schema/wallet-leases.ts';

/**
 * Takes (or renews) the right to sign from a chain's hot wallet until `now + ttlMs`: granted when
 * nobody holds it, the holder is `holder`, or the last lease ran out. One process signs at a time.
 */
export async function acquireWalletLease(
  db: Db,
  input: { chain: string; holder: string; now: number; ttlMs: number },
): Promise<boolean> {
  return writeTransaction(db, () => {
    const current = db.select().from(walletLeases).where(eq(walletLeases.chain, input.chain)).get();
    if (current && current.holder !== input.holder && current.expiresAt > input.now) return false;
    db.insert(walletLeases)
      .values({ chain: input.chain, holder: input.holder, expiresAt: input.now + input.ttlMs })
      .onConflictDoUpdate({
        target: walletLeases.chain,
        set: { holder: input.holder, expiresAt: input.now + input.ttlMs },
      })
      .run();
    return true;
  });
}

/** Gives the hot-wallet lease back (only if `holder` still has it). */
export async function releaseWalletLease(db: Db, input: { chain: string; holder: string }): Promise<void> {
  db.delete(walletLeases)
    .where(and(eq(walletLeases.chain, input.chain), eq(walletLeases.holder, input.holder)))
    .run();
}
