import { and, eq, lte, or } from 'drizzle-orm';
import type { PgExecutor } from '../client.ts';
import { walletLeases } from '../schema/wallet-leases.ts';

/**
 * Takes (or renews) the right to sign from a chain's hot wallet until `now + ttlMs`: granted when
 * nobody holds it, the holder is `holder`, or the last lease ran out. One process signs at a time.
 * Kept correct by (a) one statement, `INSERT … ON CONFLICT DO UPDATE … WHERE (holder = me OR
 * expired) RETURNING`: of two processes racing for a free or expired lease, the second waits on the
 * row the first inserted or updated, then finds it held and gets no row back.
 */
export async function acquireWalletLease(
  db: PgExecutor,
  input: { chain: string; holder: string; now: number; ttlMs: number },
): Promise<boolean> {
  const expiresAt = input.now + input.ttlMs;
  const taken = await db
    .insert(walletLeases)
    .values({ chain: input.chain, holder: input.holder, expiresAt })
    .onConflictDoUpdate({
      target: walletLeases.chain,
      set: { holder: input.holder, expiresAt },
      setWhere: or(eq(walletLeases.holder, input.holder), lte(walletLeases.expiresAt, input.now)),
    })
    .returning({ chain: walletLeases.chain });
  return taken.length === 1;
}

/** Gives the hot-wallet lease back (only if `holder` still has it). (a) one guarded DELETE. */
export async function releaseWalletLease(
  db: PgExecutor,
  input: { chain: string; holder: string },
): Promise<void> {
  await db
    .delete(walletLeases)
    .where(and(eq(walletLeases.chain, input.chain), eq(walletLeases.holder, input.holder)));
}
