/**
 * Start-up benchmark (issue 8): `kassa start` from spawn to ready, and its idle memory, with all six
 * chains configured, for the TypeScript entry (bin/kassa.mjs, through tsx) and the single-file
 * build (dist/kassa.mjs, built fresh into a temporary folder).
 *
 *   npx tsx bench/startup.ts [--runs 5] [--idle 15]
 *
 * Chains, all local: four anvil instances (ETH 1, BSC 56, POLYGON 137, AVAX_C_CHAIN 43114, mainnet
 * chain ids, automine), the fake TRON node (a block every 3 s, mainnet USDT pinned) and the fake Sui
 * node (a checkpoint every 250 ms, its test USDC as the USDC coin type via a JSON --config), run in
 * this process. Kassa runs with KASSA_NETWORK=mainnet and KASSA_RPC_<CHAIN> pointing at them.
 *
 * Scenarios: `restart` starts from a database whose deposit-address pool is already full (every
 * start after the first); `first start` from a just-migrated database, so the API derives its first
 * 200 addresses per family while starting; `unreachable` points all six RPCs at a closed port.
 *
 * Milestones per run, from the moment of spawn: `healthz` (HTTP listening: database opened,
 * migrations checked, routes built), `connected` (the last of the six "chain connected" log lines:
 * every RPC answered its chain-id check), `ready` (/readyz 200: the database took a write and every
 * chain finished its first scan within its lag budget). Each run gets a fresh copy of a migrated
 * database. RSS comes from /proc/<pid>/status after `--idle` seconds of idling. Prints one JSON object.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { buildBundle } from '../scripts/build.ts';
import { startEvmDevnet } from '../src/devnet/evm/index.ts';
import { startFakeSuiNode } from '../src/devnet/sui/index.ts';
import { startFakeTronNode } from '../src/devnet/tron/index.ts';
import { CHAINS } from '../src/domain/chains.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, idle: { type: 'string', default: '15' } },
});
const runs = Number(values.runs);
const idleSeconds = Number(values.idle);
const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'kassa-startup-'));
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const MASTER_KEY = '11'.repeat(32);
const USDT_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

interface Run {
  healthzMs: number;
  connectedMs: number | null;
  readyMs: number | null;
  idleRssMB: number;
  loadavg1: number;
}

function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 102.4) / 10;
}

async function until(
  check: () => Promise<boolean>,
  child: ChildProcess,
  timeoutMs: number,
): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (child.exitCode !== null) throw new Error(`kassa exited with ${child.exitCode}`);
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

async function status(url: string): Promise<number> {
  return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status;
}

async function once(
  entry: string[],
  env: Record<string, string>,
  port: number,
  expectReady: boolean,
): Promise<Run> {
  const loadavg1 = loadavg()[0] as number;
  const spawnedAt = Date.now();
  const t0 = performance.now();
  const child = spawn(process.execPath, entry, {
    env: { ...env, PORT: String(port) },
    cwd: work,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // First "chain connected" per chain (the scan and payout jobs may both log it).
  const connected = new Map<string, number>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      const log = JSON.parse(line) as { msg?: string; time?: number; chain?: string };
      if (log.msg === 'chain connected' && log.time && log.chain && !connected.has(log.chain))
        connected.set(log.chain, log.time - spawnedAt);
    } catch {}
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await status(`${base}/healthz`)) === 200, child, 30_000);
    const healthzMs = performance.now() - t0;
    let readyMs: number | null = null;
    if (expectReady && (await until(async () => (await status(`${base}/readyz`)) === 200, child, 60_000)))
      readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleRssMB = rssMB(child.pid as number);
    return {
      healthzMs: Math.round(healthzMs),
      connectedMs: connected.size === CHAINS.length ? Math.max(...connected.values()) : null,
      readyMs: readyMs === null ? null : Math.round(readyMs),
      idleRssMB,
      loadavg1,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

function summary(list: Run[]) {
  const pick = (k: keyof Run) => list.map((r) => r[k]).filter((v): v is number => typeof v === 'number');
  const stats = (xs: number[]) => {
    if (xs.length === 0) return null;
    const s = [...xs].sort((a, b) => a - b);
    return { median: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) };
  };
  return {
    healthzMs: stats(pick('healthzMs')),
    connectedMs: stats(pick('connectedMs')),
    readyMs: stats(pick('readyMs')),
    idleRssMB: stats(pick('idleRssMB')),
    loadavg1: stats(pick('loadavg1')),
    runs: list,
  };
}

const started = Date.now();
const loadStart = loadavg();
const bundle = await buildBundle({ outdir: join(work, 'dist') });
const evm = await startEvmDevnet();
const tron = await startFakeTronNode({
  genesis: {
    tokens: [{ symbol: 'USDT', name: 'Tether USD', decimals: 6, returnsFalse: true, address: USDT_TRON }],
  },
});
const sui = await startFakeSuiNode();
const local: Record<string, string> = {
  KASSA_RPC_TRON: tron.url,
  KASSA_RPC_SUI: sui.url,
  ...Object.fromEntries(evm.chains.map((c) => [`KASSA_RPC_${c.chain}`, c.url])),
};
const closed = Object.fromEntries(CHAINS.map((c) => [`KASSA_RPC_${c}`, 'http://127.0.0.1:9/']));
const baseEnv = {
  PATH: process.env.PATH ?? '',
  KASSA_NETWORK: 'mainnet',
  KASSA_MNEMONIC: MNEMONIC,
  KASSA_MASTER_KEY: MASTER_KEY,
  KASSA_LOG_LEVEL: 'info',
};
const entries: Record<string, string[]> = {
  'bin/kassa.mjs (tsx)': [join(root, 'bin/kassa.mjs'), 'start'],
  'dist/kassa.mjs (bundle)': [join(bundle.outdir, 'kassa.mjs'), 'start'],
};

const config = join(work, 'sui-usdc.json');
writeFileSync(
  config,
  JSON.stringify({
    chains: {
      SUI: {
        mainnet: {
          tokens: [
            { symbol: 'USDC', contract: sui.usdcType, decimals: 6 },
            { symbol: 'SUI', contract: null, decimals: 9 },
          ],
        },
      },
    },
  }),
);
for (const [name, entry] of Object.entries(entries)) entries[name] = [...entry, '--config', config];

/** Free deposit addresses per family in a database. */
function poolSizes(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT family, count(*) AS n FROM deposit_addresses WHERE order_ref IS NULL GROUP BY family')
      .all() as { family: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.family, r.n]));
  } finally {
    db.close();
  }
}

// Templates each run copies: `cold` is what `kassa migrate` leaves; `warm` has the address pool full.
const cold = join(work, 'cold.db');
await new Promise<void>((resolveDone, reject) => {
  const c = spawn(process.execPath, [join(bundle.outdir, 'kassa.mjs'), 'migrate'], {
    env: { ...baseEnv, KASSA_DB: cold },
    stdio: 'ignore',
  });
  c.once('exit', (code) => (code === 0 ? resolveDone() : reject(new Error(`migrate exited ${code}`))));
});
const warm = join(work, 'warm.db');
copyFileSync(cold, warm);
{
  const filler = spawn(process.execPath, entries['dist/kassa.mjs (bundle)'] as string[], {
    env: { ...baseEnv, ...closed, KASSA_DB: warm, PORT: '18399' },
    stdio: 'ignore',
  });
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 500));
    const sizes = (() => {
      try {
        return poolSizes(warm);
      } catch {
        return {};
      }
    })();
    if (['evm', 'tron', 'sui'].every((f) => (sizes[f] ?? 0) >= 200)) break;
  }
  const exited = new Promise((r) => filler.once('exit', r));
  filler.kill('SIGTERM');
  await exited;
  process.stderr.write(`warm template: free addresses ${JSON.stringify(poolSizes(warm))}\n`);
}

const results: Record<string, unknown> = {};
let port = 18_400;
for (const [scenario, rpc, template, expectReady] of [
  ['restart, six local chains', local, warm, true],
  ['first start (empty address pool), six local chains', local, cold, true],
  ['restart, six unreachable RPCs (closed port)', closed, warm, false],
] as const) {
  for (const [name, entry] of Object.entries(entries)) {
    const list: Run[] = [];
    for (let i = 0; i <= runs; i++) {
      const db = join(work, `run-${port}.db`);
      copyFileSync(template, db);
      const run = await once(entry, { ...baseEnv, ...rpc, KASSA_DB: db }, port++, expectReady);
      if (i > 0) list.push(run); // the first run warms tsx's cache and the page cache
      rmSync(db, { force: true });
      process.stderr.write(`${scenario} · ${name}: ${JSON.stringify(run)}${i === 0 ? ' (warm-up)' : ''}\n`);
    }
    results[`${scenario} · ${name}`] = summary(list);
  }
}

await sui.close();
await tron.close();
await evm.stop();
rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
      loadavgAtStart: loadStart,
      loadavgAtEnd: loadavg(),
      minutes: Math.round((Date.now() - started) / 6000) / 10,
      settings: { runs, idleSeconds, warmUpRunsDiscarded: 1 },
      bundle: { bytes: bundle.bundleBytes, buildMs: bundle.ms },
      budget: { startToReadyMs: 2000, idleRssMB: 150 },
      results,
    },
    null,
    2,
  ),
);
