/**
 * What the PostgreSQL query timeout (src/db/pg/timed-client.ts: a timer per query) costs: the same
 * work through a pool without it and one with database.queryTimeoutMs = 30 s, in alternating rounds,
 * on a throwaway cluster (fsync off: this measures the client, not the disk). Each round runs
 * `--queries` single `SELECT 1` calls on the pool and `--queries / 10` transactions of one
 * `SELECT … FOR UPDATE` and one `UPDATE`, one at a time, and reports this process's CPU time and the
 * wall time per call. `npx tsx bench/pg-query-timeout.ts [--rounds 6] [--queries 4000]`
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { closePg, openPg, type PgDb, pgTransaction } from '../src/db/pg/client.ts';
import { startPgCluster } from '../test/helpers/postgres-cluster.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '6' }, queries: { type: 'string', default: '4000' } },
});
const rounds = Number(values.rounds);
const queries = Number(values.queries);

async function work(db: PgDb): Promise<{ cpuUs: number; wallUs: number; calls: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < queries; i++) await db.execute(sql`SELECT 1`);
  for (let i = 0; i < queries / 10; i++)
    await pgTransaction(db, async (tx) => {
      await tx.execute(sql`SELECT n FROM bench_counter WHERE id = 1 FOR UPDATE`);
      await tx.execute(sql`UPDATE bench_counter SET n = n + 1 WHERE id = 1`);
    });
  const used = process.cpuUsage(cpu);
  const calls = queries + queries / 10;
  return {
    cpuUs: (used.user + used.system) / calls,
    wallUs: ((performance.now() - started) * 1000) / calls,
    calls,
  };
}

const cluster = await startPgCluster({ durable: false });
const url = cluster.urlOf('postgres');
const plain = openPg(url, { max: 2 });
const timed = openPg(url, { max: 2, queryTimeoutMs: 30_000 });
try {
  await plain.execute(sql`CREATE TABLE bench_counter (id int PRIMARY KEY, n bigint NOT NULL)`);
  await plain.execute(sql`INSERT INTO bench_counter VALUES (1, 0)`);
  await work(plain);
  await work(timed); // warm-up of both
  const results: { pool: string; cpuUs: number; wallUs: number }[] = [];
  for (let r = 0; r < rounds; r++)
    for (const [pool, db] of r % 2 === 0
      ? ([
          ['without', plain],
          ['with', timed],
        ] as const)
      : ([
          ['with', timed],
          ['without', plain],
        ] as const)) {
      const { cpuUs, wallUs } = await work(db);
      results.push({ pool, cpuUs, wallUs });
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  for (const pool of ['without', 'with']) {
    const mine = results.filter((x) => x.pool === pool);
    console.log(
      `${pool} the query timeout: CPU ${median(mine.map((x) => x.cpuUs)).toFixed(1)} µs/call, wall ${median(mine.map((x) => x.wallUs)).toFixed(1)} µs/call (median of ${mine.length} rounds of ${queries + queries / 10} calls)`,
    );
  }
} finally {
  await closePg(plain);
  await closePg(timed);
  cluster.stop();
}
