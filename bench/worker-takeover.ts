/**
 * Worker take-over time (issue 16): how long after the worker holding the lease is SIGKILLed the
 * standby runs its first job.
 *
 *   npx tsx bench/worker-takeover.ts [--runs 10]
 *
 * anvil as ETH (a block a second), one SQLite file, two real `kassa worker` processes: the holder
 * and a standby, each reaching anvil through its own proxy. Each run SIGKILLs the holder and times,
 * from the kill, (1) the standby's "holding the worker lease" log line and (2) the first request
 * its scan job sends to its node (its first job run); then a new standby is started behind a new
 * proxy and waits for the new holder. The time depends on where in the holder's renewal cycle the
 * kill lands: the lease runs out 4–6 s after the kill (TTL 6 s, renewed every 2 s), and the standby
 * asks once a second. Prints one line per run and the min / median / max as JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startAnvil } from '../src/devnet/evm/index.ts';
import { CHAINS } from '../src/domain/chains.ts';
import { kassa, sigkill } from '../test/helpers/cli.ts';
import { type FaultProxy, startFaultProxy } from '../test/helpers/fault-proxy.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../test/helpers/harness.ts';
import { createPgDatabase, startPgCluster } from '../test/helpers/postgres-cluster.ts';
import { bindFileToPostgres } from '../test/helpers/test-engine.ts';
import { HOLDING, type LoggedWorker, startLoggedWorker } from '../test/helpers/worker-process.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, db: { type: 'string', default: 'sqlite' } },
});
const RUNS = Number(values.runs);
if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error('--db is sqlite or postgres');

const dir = mkdtempSync(join(tmpdir(), 'kassa-takeover-'));
const dbFile = join(dir, 'kassa.db');
// --db postgres: the workers share one database in a durable throwaway cluster (fsync on).
const cluster = values.db === 'postgres' ? await startPgCluster({ durable: true }) : null;
if (cluster) {
  await createPgDatabase(cluster.adminUrl, 'kassa');
  bindFileToPostgres(dbFile, cluster.urlOf('kassa'));
}
const anvil = await startAnvil({ chainId: 1, blockTime: 1 });
const open: { worker: LoggedWorker; proxy: FaultProxy }[] = [];

/** A worker behind its own proxy to anvil: ETH only, polled every 200 ms. */
async function startWorker(n: number): Promise<{ worker: LoggedWorker; proxy: FaultProxy; holder: string }> {
  const proxy = await startFaultProxy(anvil.url);
  const chains: Record<string, unknown> = Object.fromEntries(CHAINS.map((c) => [c, { enabled: false }]));
  chains.ETH = { enabled: true, pollIntervalMs: 200, mainnet: { rpc: [proxy.url] } };
  const file = join(dir, `worker-${n}.json`);
  writeFileSync(file, JSON.stringify({ network: 'mainnet', chains }));
  const worker = startLoggedWorker(file, dbFile);
  open.push({ worker, proxy });
  return { worker, proxy, holder: await worker.holder() };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

try {
  const migrated = kassa(['migrate'], {
    KASSA_DB: dbFile,
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
  });
  if (migrated.code !== 0) throw new Error(`kassa migrate: ${migrated.stderr}`);
  let holder = await startWorker(0);
  await holder.worker.line((l) => l.msg === HOLDING, 60_000, 'the first lease');
  let standby = await startWorker(1);
  await standby.worker.line((l) => l.msg === `waiting for the worker lease held by ${holder.holder}`, 60_000);
  const runs: { run: number; leaseMs: number; firstJobMs: number }[] = [];
  for (let run = 1; run <= RUNS; run++) {
    if (standby.proxy.hits !== 0) throw new Error('the standby sent requests while it was standing by');
    const killedAt = Date.now();
    await sigkill(holder.worker.child);
    const firstJob = await until(() => standby.proxy.hits > 0, 30_000, 'the standby’s first job run');
    const took = await standby.worker.line((l) => l.msg === HOLDING, 30_000, 'the take-over line');
    const result = { run, leaseMs: took.seenAt - killedAt, firstJobMs: firstJob - killedAt };
    runs.push(result);
    console.log(JSON.stringify(result));
    holder = standby;
    standby = await startWorker(run + 1);
    await standby.worker.line(
      (l) => l.msg === `waiting for the worker lease held by ${holder.holder}`,
      60_000,
    );
  }
  const firstJob = runs.map((r) => r.firstJobMs);
  const lease = runs.map((r) => r.leaseMs);
  console.log(
    JSON.stringify(
      {
        runs: RUNS,
        db: values.db,
        firstJobRunAfterKillMs: {
          min: Math.min(...firstJob),
          median: median(firstJob),
          max: Math.max(...firstJob),
        },
        leaseLineAfterKillMs: { min: Math.min(...lease), median: median(lease), max: Math.max(...lease) },
        loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
      },
      null,
      2,
    ),
  );
} finally {
  for (const o of open) {
    await sigkill(o.worker.child);
    await o.proxy.close();
  }
  await anvil.stop();
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
