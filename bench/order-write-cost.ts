/**
 * What the dashboard's order indexes cost the merchant API (issue 17): the real createCollection
 * service (validation, the address pool, the order insert, group commit, synchronous=FULL) on two
 * databases side by side, one as migrated and one with the dashboard's three order indexes dropped
 * (orders_created, orders_uid, orders_receive_address), in alternating rounds so that load on a
 * shared machine hits both alike. A V3 merchant (no uid: the partial uid index stays empty) and a V2
 * merchant (every order has a uid) are measured separately.
 *
 *   npx tsx bench/order-write-cost.ts [--rounds 6] [--per-round 2000] [--concurrency 50]
 *
 * Prints orders per second per variant (median of the rounds) and the relative cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bootstrap } from '../src/bootstrap.ts';
import { sqliteOf } from '../src/db/sqlite-store.ts';
import { silentLogger } from '../src/lib/logger.ts';
import { createCollection } from '../src/services/create-collection.ts';
import type { Deps } from '../src/services/deps.ts';
import { fillAddressPool } from '../src/services/fill-address-pool.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../test/helpers/harness.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    'per-round': { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '50' },
  },
});
const rounds = Number(values.rounds);
const perRound = Number(values['per-round']);
const concurrency = Number(values.concurrency);
const dir = mkdtempSync(join(tmpdir(), 'kassa-write-cost-'));

async function open(name: string, dropDashboardIndexes: boolean) {
  const rt = await bootstrap({
    env: {
      KASSA_DB: join(dir, `${name}.db`),
      KASSA_MNEMONIC: TEST_MNEMONIC,
      KASSA_MASTER_KEY: TEST_MASTER_KEY,
    },
    migrations: 'apply',
    logger: silentLogger(),
  });
  if (dropDashboardIndexes)
    sqliteOf(rt.db).$client.exec(
      'DROP INDEX orders_created; DROP INDEX orders_uid; DROP INDEX orders_receive_address;',
    );
  const directory = new MerchantDirectory(rt);
  const v3 = await createMerchant(rt, { kind: 'V3' });
  const v2 = await createMerchant(rt, { kind: 'V2' });
  while ((await fillAddressPool(rt, 'evm', rounds * perRound * 2 + 100, 1000)) > 0) {}
  return {
    rt,
    v3: (await directory.byId(v3.merchantId))!,
    v2: (await directory.byId(v2.merchantId))!,
  };
}

let n = 0;
async function round(world: { rt: Deps; v3: unknown; v2: unknown }, kind: 'v2' | 'v3'): Promise<number> {
  const merchant = world[kind] as Parameters<typeof createCollection>[1];
  const started = performance.now();
  for (let done = 0; done < perRound; done += concurrency) {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, perRound - done) }, () => {
        n++;
        const data: Record<string, unknown> = {
          amount: '10.5',
          symbol: 'USDT',
          chain: 'ETH',
          orderId: `o-${n}`,
        };
        if (kind === 'v2') data.uid = `customer-${n % 5000}`;
        return createCollection(world.rt, merchant, data);
      }),
    );
  }
  return perRound / ((performance.now() - started) / 1000);
}

const withIndexes = await open('with', false);
const without = await open('without', true);
const results: Record<string, number[]> = {
  'v3 with': [],
  'v3 without': [],
  'v2 with': [],
  'v2 without': [],
};
const load: number[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    load.push(loadavg()[0] as number);
    const order = r % 2 === 0 ? [withIndexes, without] : [without, withIndexes];
    for (const kind of ['v3', 'v2'] as const)
      for (const world of order)
        results[`${kind} ${world === withIndexes ? 'with' : 'without'}`]?.push(await round(world, kind));
  }
} finally {
  await withIndexes.rt.close();
  await without.rt.close();
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const summary = Object.fromEntries(
  Object.entries(results).map(([k, xs]) => [k, { median: Math.round(median(xs)), runs: xs.map(Math.round) }]),
);
const cost = (kind: string) =>
  +(1 - (summary[`${kind} with`]?.median ?? 0) / (summary[`${kind} without`]?.median ?? 1)).toFixed(3);
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      loadAverage1m: load.map((l) => +l.toFixed(2)),
      settings: { rounds, perRound, concurrency },
      ordersPerSecond: summary,
      relativeCost: { v3: cost('v3'), v2: cost('v2') },
    },
    null,
    2,
  ),
);
