/**
 * Signed createCollection against N real `kassa api` processes on one database (issue 16), the load
 * spread over them: one autocannon instance per process in the bench process, `connections / N`
 * connections each, latencies merged into one histogram. `bench/api.ts --db … --processes N` runs it.
 *
 * Each run gets a new database (a SQLite file, or a database in a durable PostgreSQL cluster:
 * fsync on, as production runs), migrated, with one merchant and `pool` deposit addresses per
 * family derived before timing (as bench/api-server.ts does for the one-process figure), then the
 * processes are started with `kassa api` and the same config: rate limits out of the way, loopback.
 * A warm-up of the same load comes first, not measured. After the run the database is read back:
 * as many distinct deposit addresses as orders.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { bootstrap } from '../src/bootstrap.ts';
import { silentLogger } from '../src/lib/logger.ts';
import { fillAddressPool } from '../src/services/fill-address-pool.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';
import { freePort } from '../test/helpers/cli.ts';
import { createPgDatabase, dropPgDatabase, type PgCluster } from '../test/helpers/postgres-cluster.ts';

const KASSA_BIN = join(import.meta.dirname, '../bin/kassa.mjs');
const MNEMONIC = 'test test test test test test test test test test test junk';
const MASTER_KEY = '22'.repeat(32);
const PLENTY = { limit: 1_000_000, windowSeconds: 10 };
const CHAINS = [
  { chain: 'ETH', symbol: 'USDT' },
  { chain: 'TRON', symbol: 'USDT' },
  { chain: 'BSC', symbol: 'USDC' },
];

export interface ProcessesRun {
  engine: 'sqlite' | 'postgres';
  processes: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
  /**
   * Orders stored (warm-up included, and the requests still in flight when the clock stopped) and
   * the distinct deposit addresses among them, read from the database afterwards: equal, or an
   * address went to two orders.
   */
  stored: { orders: number; addresses: number };
  poolFillMs: number;
  loadAverage: number[];
  /**
   * CPU time per answered request over the measured part (user + system, from /proc): in the API
   * processes, and in the PostgreSQL backends serving this database (0 on SQLite). Unlike req/s it
   * does not depend much on what else the machine runs.
   */
  cpuUsPerRequest: { api: number; postgres: number };
}

/** CPU time (user + system) of these processes so far, in µs, from /proc/PID/stat (Linux). */
function cpuUs(pids: number[]): number {
  const tick = 1e6 / 100; // USER_HZ
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {} // gone: counts nothing
  }
  return total;
}

/** The PostgreSQL backends connected to the database of `url` (the pools of the API processes). */
async function backendPids(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (
      await client.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).rows;
    return rows.map((r: { pid: number }) => r.pid);
  } finally {
    await client.end();
  }
}

/** autocannon's multi-instance parts (bench/autocannon.d.ts types the single-instance ones). */
type Result = Awaited<ReturnType<typeof autocannon>>;
type RawResult = Result & { '2xx': number };
const merge = (autocannon as unknown as { aggregateResult(r: RawResult[], o: object): Result })
  .aggregateResult;

function sign(token: string, data: unknown): string {
  const text = JSON.stringify(data);
  const mac = createHmac('sha256', token).update(text).digest('hex');
  return `{"sign":"${mac}","timestamp":${Math.floor(Date.now() / 1000)},"nonce":"${randomUUID()}","data":${text}}`;
}

/** Starts `kassa api` on `env`'s database; resolves with its URL once /healthz answers. */
async function startApi(
  configFile: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [KASSA_BIN, 'api', '--config', configFile], {
    env: {
      PATH: process.env.PATH ?? '',
      KASSA_ADMIN_PORT: '0',
      KASSA_LOG_LEVEL: 'warn',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`kassa api exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`kassa api at ${url} did not answer within 60 s`);
}

async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Orders and distinct addresses among them, from the database itself. */
async function storedOrders(env: Record<string, string>): Promise<{ orders: number; addresses: number }> {
  const q = 'SELECT count(*) AS orders, count(DISTINCT address) AS addresses FROM orders';
  if (env.KASSA_DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.KASSA_DATABASE_URL });
    await client.connect();
    try {
      const [row] = (await client.query(q)).rows as { orders: string; addresses: string }[];
      return { orders: Number(row?.orders), addresses: Number(row?.addresses) };
    } finally {
      await client.end();
    }
  }
  const db = new Database(env.KASSA_DB as string, { readonly: true });
  try {
    return db.prepare(q).get() as { orders: number; addresses: number };
  } finally {
    db.close();
  }
}

/**
 * One run: a new database on `engine` (PostgreSQL: a new database in `cluster`), `processes` API
 * processes on it, `warmup` then `duration` seconds of signed createCollection over `connections`
 * connections.
 */
export async function runApiProcesses(options: {
  engine: 'sqlite' | 'postgres';
  processes: number;
  duration: number;
  /** Seconds of the same load before the measured part. */
  warmup: number;
  connections: number;
  pool: number;
  cluster?: PgCluster;
}): Promise<ProcessesRun> {
  const { engine, processes, duration, connections } = options;
  const dir = mkdtempSync(join(tmpdir(), 'kassa-bench-processes-'));
  const name = `bench_${randomUUID().replaceAll('-', '')}`;
  const env: Record<string, string> = {
    KASSA_DB: join(dir, 'kassa.db'),
    KASSA_MNEMONIC: MNEMONIC,
    KASSA_MASTER_KEY: MASTER_KEY,
  };
  if (engine === 'postgres') {
    if (!options.cluster) throw new Error('a PostgreSQL run needs a cluster');
    await createPgDatabase(options.cluster.adminUrl, name);
    env.KASSA_DATABASE_URL = options.cluster.urlOf(name);
  }
  const children: ChildProcess[] = [];
  try {
    const config = {
      host: '127.0.0.1',
      rateLimits: { createCollection: PLENTY, createPayout: PLENTY, status: PLENTY },
      auth: { failedAttempts: PLENTY },
    };
    const configFile = join(dir, 'kassa.json');
    writeFileSync(configFile, JSON.stringify(config));
    const rt = await bootstrap({ env, configFile, migrations: 'apply', logger: silentLogger() });
    const merchant = await createMerchant(rt, { kind: 'V3' });
    const started = Date.now();
    for (const family of ['evm', 'tron'] as const) {
      while ((await fillAddressPool(rt, family, options.pool, 500)) > 0) {}
    }
    const poolFillMs = Date.now() - started;
    await rt.close();

    const apis = await Promise.all(Array.from({ length: processes }, () => startApi(configFile, env)));
    children.push(...apis.map((a) => a.child));
    let i = 0;
    const body = () => {
      const c = CHAINS[i++ % CHAINS.length] as (typeof CHAINS)[number];
      return sign(merchant.token, {
        amount: '10.5',
        symbol: c.symbol,
        chain: c.chain,
        orderId: `bench-${i}-${randomUUID()}`,
      });
    };
    /** Load on every process at once for `seconds`, each with its share of the connections. */
    const load = async (seconds: number) =>
      (await Promise.all(
        apis.map((a, k) =>
          autocannon({
            url: `${a.url}/v1/order/createCollection`,
            // the connections shared out, the first processes taking the remainder
            connections: Math.floor(connections / processes) + (k < connections % processes ? 1 : 0),
            duration: seconds,
            skipAggregateResult: true,
            requests: [
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                setupRequest: (req) => ({ ...req, body: body() }),
              },
            ],
          } as Parameters<typeof autocannon>[0]),
        ),
      )) as RawResult[];
    if (options.warmup > 0) await load(options.warmup); // JIT, pools and caches warm, not measured
    const apiPids = apis.map((a) => a.child.pid ?? 0);
    const pgPids = env.KASSA_DATABASE_URL ? await backendPids(env.KASSA_DATABASE_URL) : [];
    const cpuBefore = { api: cpuUs(apiPids), postgres: cpuUs(pgPids) };
    const began = Date.now();
    const results = await load(duration);
    const seconds = (Date.now() - began) / 1000;
    const cpu = { api: cpuUs(apiPids) - cpuBefore.api, postgres: cpuUs(pgPids) - cpuBefore.postgres };
    const merged = merge(results, { url: apis[0]?.url, connections, duration });
    const ok = results.reduce((n, r) => n + r['2xx'], 0);
    await Promise.all(children.map(stopApi));
    return {
      engine,
      processes,
      requestsPerSec: Math.round(ok / seconds),
      p50: merged.latency.p50,
      p99: merged.latency.p99,
      non2xx: merged.non2xx,
      errors: merged.errors,
      total: ok,
      stored: await storedOrders(env),
      poolFillMs,
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
      cpuUsPerRequest: { api: Math.round(cpu.api / ok), postgres: Math.round(cpu.postgres / ok) },
    };
  } finally {
    await Promise.all(children.map(stopApi));
    if (engine === 'postgres' && options.cluster) await dropPgDatabase(options.cluster.adminUrl, name);
    rmSync(dir, { recursive: true, force: true });
  }
}
