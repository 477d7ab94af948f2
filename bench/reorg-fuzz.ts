/**
 * More rounds of the randomized reorganisation test (issue 19) than CI runs: the same runs as
 * test/evm/reorg-fuzz.test.ts and test/tron/reorg-fuzz.test.ts (test/helpers/reorg-fuzz.ts
 * describes one), with fresh seeds.
 *
 *   npx tsx bench/reorg-fuzz.ts [--chain ETH|TRON|both] [--runs 100] [--seed 1000] [--actions 50]
 *
 * Runs `runs` seeds from `seed` on each chain (every third with the RPC down from the first start)
 * and prints each failure with its seed and action log, then a summary per chain: runs, failures,
 * time per run (mean, p50, max), and what the schedules exercised. Exits 1 when any run failed.
 * A failing seed is replayed in the test by putting it in the test's SEEDS.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type FuzzStats, runReorgFuzz } from '../test/helpers/reorg-fuzz.ts';
import type { FuzzChain } from '../test/helpers/reorg-fuzz-chain.ts';
import { evmFuzzChain } from '../test/helpers/reorg-fuzz-evm.ts';
import { tronFuzzChain } from '../test/helpers/reorg-fuzz-tron.ts';

const { values } = parseArgs({
  options: {
    chain: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1000' },
    actions: { type: 'string', default: '50' },
  },
});
const RUNS = Number(values.runs);
const FIRST = Number(values.seed);
const ACTIONS = Number(values.actions);
const chains: [string, () => Promise<FuzzChain>][] = [];
if (values.chain === 'ETH' || values.chain === 'both')
  chains.push(['ETH', () => evmFuzzChain({ ttlSeconds: 3600 })]);
if (values.chain === 'TRON' || values.chain === 'both')
  chains.push(['TRON', () => tronFuzzChain({ ttlSeconds: 900 })]);
if (chains.length === 0) throw new Error(`--chain must be ETH, TRON or both, not ${values.chain}`);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

let failed = 0;
console.log(
  `reorg fuzz: ${RUNS} runs per chain from seed ${FIRST}, ${ACTIONS} actions each; ${cpus().length} CPUs, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const [name, make] of chains) {
  const done: FuzzStats[] = [];
  const failures: number[] = [];
  const started = Date.now();
  for (let i = 0; i < RUNS; i++) {
    const seed = FIRST + i;
    try {
      done.push(await runReorgFuzz(make, { seed, outageFromStart: seed % 3 === 0, actions: ACTIONS }));
    } catch (error) {
      failures.push(seed);
      console.log(`\n${name} seed ${seed} FAILED:\n${(error as Error).stack ?? String(error)}\n`);
    }
  }
  failed += failures.length;
  const ms = done.map((s) => s.ms).sort((a, b) => a - b);
  const total = (k: keyof FuzzStats) => done.reduce((sum, s) => sum + Number(s[k]), 0);
  console.log(
    [
      `${name}: ${RUNS} runs, ${failures.length} failed${failures.length ? ` (seeds ${failures.join(', ')})` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      `  per run: mean ${(ms.reduce((a, b) => a + b, 0) / Math.max(ms.length, 1)).toFixed(0)} ms, p50 ${percentile(ms, 50)} ms, max ${ms.at(-1) ?? 0} ms`,
      `  exercised: ${total('transfers')} payments (${total('dropped')} dropped for good), ${total('reorgs')} reorganisations (${total('deepReorgs')} deeper than the confirmation count, ${total('reorgsInPass')} inside a pass), ${total('kassaReorgs')} found at a checkpoint, ${total('reverted')} ORDER_REVERTED, ${total('kills')} kills, ${total('failedPasses')} polls with the RPC down, ${done.filter((s) => s.outageFromStart).length} runs down from the first start`,
    ].join('\n'),
  );
}
console.log(
  `load after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exit(failed > 0 ? 1 : 0);
