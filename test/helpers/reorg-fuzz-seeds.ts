import { type FuzzStats, runReorgFuzz } from './reorg-fuzz.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';

/**
 * Runs the fixed seeds of a CI test one after the other (every third with the RPC down from the
 * first start) and says which of the things the invariant is about the schedules never exercised:
 * an empty list when they found reorganisations at a checkpoint, made ones deeper than the
 * confirmation count and inside a pass, rolled an order back, killed the worker, and started down.
 */
export async function runReorgFuzzSeeds(
  make: () => Promise<FuzzChain>,
  seeds: number[],
): Promise<{ stats: FuzzStats[]; unexercised: string[] }> {
  const stats: FuzzStats[] = [];
  for (const seed of seeds) stats.push(await runReorgFuzz(make, { seed, outageFromStart: seed % 3 === 0 }));
  const total = (k: keyof FuzzStats) => stats.reduce((sum, s) => sum + Number(s[k]), 0);
  const wanted: (keyof FuzzStats)[] = ['kassaReorgs', 'deepReorgs', 'reorgsInPass', 'reverted', 'kills'];
  const unexercised = wanted.filter((k) => total(k) === 0) as string[];
  if (!stats.some((s) => s.outageFromStart)) unexercised.push('outageFromStart');
  return { stats, unexercised };
}
