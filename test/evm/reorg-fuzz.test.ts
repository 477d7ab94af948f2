import { expect, it } from 'vitest';
import { evmFuzzChain } from '../helpers/reorg-fuzz-evm.ts';
import { runReorgFuzzSeeds } from '../helpers/reorg-fuzz-seeds.ts';

/*
 * The randomized reorganisation test on anvil (issue 19), with fixed seeds so CI runs the same
 * schedules every time; test/helpers/reorg-fuzz.ts describes a run and its invariant. More rounds
 * with fresh seeds: `npx tsx bench/reorg-fuzz.ts --chain ETH --runs 200`.
 */
it('credits every transfer on the final canonical chain exactly once, through reorgs, kills and outages (ETH)', async () => {
  const { unexercised } = await runReorgFuzzSeeds(
    () => evmFuzzChain({ ttlSeconds: 3600 }),
    [11, 12, 13, 14, 15, 16, 17, 18],
  );
  expect(unexercised).toEqual([]);
}, 120_000);
