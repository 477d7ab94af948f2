/**
 * SUI scanner benchmark against the fake Sui node (src/devnet/sui), which runs as its own process
 * (src/devnet/sui/serve.ts) so that the scanner is measured, not the fake.
 *
 *   npx tsx bench/scan-sui.ts [--deposits 500] [--checkpoints 2000] [--rounds 2] [--latency-samples 30] [--poll-ms 1000]
 *
 * 1. Catch-up: the scanner has seen the head; with it stopped, `checkpoints` checkpoints are sealed
 *    holding `deposits` deposits (one in five into the address balance) to as many open orders;
 *    then one scanner run credits all of them. Budget: ≥ 1,000 checkpoints/s. Done `rounds` times
 *    in one process: the first round is cold (as right after a restart), the others warm.
 * 2. Detection: checkpoints sealed every 250 ms–1 s (uniformly at random), the worker running
 *    in process (poll interval `poll-ms`, confirmations 1); for each payment, the time from the
 *    checkpoint holding it being sealed to its order reaching SUCCESS (p50, p99).
 *    Budget: p99 < poll interval + 500 ms.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import { createCollection } from '../src/services/create-collection.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { listTokens } from '../src/services/resolve-token.ts';
import { scanChain } from '../src/services/scan-chain/scan-chain.ts';
import { makeHarness } from '../test/helpers/harness.ts';
import { suiChainConfig } from '../test/helpers/sui-chain.ts';
import { chainJobs } from '../workers/jobs/chain-jobs.ts';
import { startWorker } from '../workers/main.ts';

export interface ScanSuiOptions {
  deposits?: number;
  checkpoints?: number;
  /** Catch-up rounds in one process: the first cold, the others warm. Default 2. */
  rounds?: number;
  latencySamples?: number;
  pollIntervalMs?: number;
}

interface FakeProcess {
  url: string;
  /** CPU time (user + system) the node process has used so far, in ms. */
  cpuMs(): number;
  usdcType: string;
  control(path: string, body?: unknown): Promise<Record<string, unknown>>;
  stop(): void;
}

/** Starts `src/devnet/sui/serve.ts --manual` as a child process. */
async function startFakeNode(): Promise<FakeProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../src/devnet/sui/serve.ts'), '--manual'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the fake Sui node exited with ${code}`)));
  });
  const info = JSON.parse(line) as { url: string; usdcType: string };
  return {
    ...info,
    async control(path, body) {
      const res = await fetch(`${info.url}/_fake/${path}`, {
        method: path === 'state' ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: path === 'state' ? undefined : JSON.stringify(body ?? {}),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`/_fake/${path}: ${JSON.stringify(json)}`);
      return json;
    },
    cpuMs() {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) * (1000 / 100); // clock ticks of 10 ms
    },
    stop: () => child.kill('SIGTERM'),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function world(node: FakeProcess, pollIntervalMs: number, confirmations: number | 'finalized') {
  const h = await makeHarness(suiChainConfig(node, { confirmations, pollIntervalMs }), {
    clockStart: Date.now(),
    chains: true,
  });
  const m = await h.merchant('V3');
  const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
  if (!merchant) throw new Error('no merchant');
  const adapter = h.rt.adapters.get('SUI');
  if (!adapter) throw new Error('no SUI adapter');
  await adapter.connect();
  const open = async (orderId: string) =>
    (await createCollection(h.rt, merchant, { amount: '1', symbol: 'USDC', chain: 'SUI', orderId })).address;
  const status = (orderId: string) => findOrderByMerchantOrderId(h.db, m.merchantId, orderId)?.status;
  return { h, adapter, open, status };
}

/**
 * `rounds` catch-ups in one process: the first one cold (right after start, as after a restart:
 * the JIT still warming up), the next ones warm (what a long catch-up settles at).
 */
async function catchUp(node: FakeProcess, deposits: number, checkpoints: number, rounds: number) {
  const w = await world(node, 1000, 'finalized');
  try {
    const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'SUI');
    let scanMs = 0;
    const scan = w.adapter.scan.bind(w.adapter);
    w.adapter.scan = async (...args) => {
      const t = performance.now();
      try {
        return await scan(...args);
      } finally {
        scanMs += performance.now() - t;
      }
    };
    const results = [];
    for (let round = 0; round < rounds; round++) {
      const addresses: string[] = [];
      for (let i = 0; i < deposits; i++) addresses.push(await w.open(`c-${round}-${i}`));
      await scanChain(w.h.rt, w.adapter, tokens, new AbortController().signal); // the cursor reaches the head
      const prepared = performance.now();
      const every = Math.max(1, Math.floor(checkpoints / deposits));
      let sealed = 0;
      for (let i = 0; i < deposits; i++) {
        await node.control('mint', {
          coinType: node.usdcType,
          owner: addresses[i],
          amount: '1000000',
          asAddressBalance: i % 5 === 4,
        });
        for (let k = 0; k < every; k++, sealed++) await node.control('checkpoint');
      }
      for (; sealed < checkpoints; sealed++) await node.control('checkpoint');
      const preparationMs = performance.now() - prepared;

      scanMs = 0;
      const cpuBefore = process.cpuUsage();
      const nodeCpuBefore = node.cpuMs();
      const started = performance.now();
      const summary = await scanChain(w.h.rt, w.adapter, tokens, new AbortController().signal);
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const kassaCpuMs = (cpu.user + cpu.system) / 1000;
      const nodeCpuMs = node.cpuMs() - nodeCpuBefore;
      const credited = Array.from({ length: deposits }, (_, i) => w.status(`c-${round}-${i}`)).filter(
        (s) => s === 'SUCCESS',
      ).length;
      results.push({
        round: round === 0 ? 'cold (first catch-up after start)' : 'warm',
        checkpoints: summary.blocks,
        deposits,
        credited,
        preparationMs: Math.round(preparationMs),
        ms: Math.round(ms),
        /** Of which in adapter.scan (the GetCheckpoint calls); the rest is the engine's database work. */
        adapterScanMs: Math.round(scanMs),
        checkpointsPerSecond: Math.round((summary.blocks * 1000) / ms),
        depositsPerSecond: Math.round((credited * 1000) / ms),
        /** CPU per checkpoint of the scanner (this process) and of the fake node's process. */
        cpuMsPerCheckpoint: {
          kassa: Number((kassaCpuMs / summary.blocks).toFixed(3)),
          fakeNode: Number((nodeCpuMs / summary.blocks).toFixed(3)),
        },
        /** What that CPU cost allows with a core each for the scanner and the node (an idle 2-core box). */
        checkpointsPerSecondIfUnloaded: Math.round(summary.blocks / (Math.max(kassaCpuMs, nodeCpuMs) / 1000)),
      });
    }
    return results;
  } finally {
    await w.h.close();
  }
}

async function detection(node: FakeProcess, samples: number, pollIntervalMs: number) {
  const w = await world(node, pollIntervalMs, 1);
  await w.open('warm-up');
  const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'SUI');
  await scanChain(w.h.rt, w.adapter, tokens, new AbortController().signal); // first scan: cursor to the head
  const sealedAt = new Map<string, number>();
  let sealing = true;
  const sealer = (async () => {
    while (sealing) {
      await new Promise((r) => setTimeout(r, 250 + Math.random() * 750));
      const cp = (await node.control('checkpoint')) as { transactions: string[] };
      const now = performance.now();
      for (const digest of cp.transactions) sealedAt.set(digest, now);
    }
  })();
  const worker = await startWorker(w.h.rt, [chainJobs]);
  try {
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const orderId = `d-${i}`;
      const address = await w.open(orderId);
      const { digest } = (await node.control('mint', {
        coinType: node.usdcType,
        owner: address,
        amount: '1000000',
      })) as { digest: string };
      let done = 0;
      while (!done) {
        if (w.status(orderId) === 'SUCCESS') done = performance.now();
        else await new Promise((r) => setTimeout(r, 5));
      }
      const sealed = sealedAt.get(digest);
      if (sealed === undefined) throw new Error(`credited before its checkpoint was seen sealed: ${digest}`);
      latencies.push(done - sealed);
      await new Promise((r) => setTimeout(r, Math.random() * 1000)); // land anywhere in the poll cycle
    }
    latencies.sort((a, b) => a - b);
    return {
      samples,
      pollIntervalMs,
      checkpointIntervalMs: '250–1000 (uniform)',
      confirmations: 1,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      maxMs: Math.round(latencies.at(-1) ?? 0),
    };
  } finally {
    sealing = false;
    await sealer;
    await worker.stop();
    await w.h.close();
  }
}

/** Runs both measurements against a fake node process; resolves with the report (budgets judged). */
export async function benchScanSui(options: ScanSuiOptions = {}) {
  const deposits = options.deposits ?? 500;
  const checkpoints = options.checkpoints ?? 2000;
  const samples = options.latencySamples ?? 30;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const node = await startFakeNode();
  try {
    const loadBefore = loadavg().map((l) => Number(l.toFixed(2)));
    const catchUpResult = await catchUp(node, deposits, checkpoints, options.rounds ?? 2);
    const cold = catchUpResult[0];
    const warm = catchUpResult.at(-1);
    const detectionResult = await detection(node, samples, pollIntervalMs);
    return {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
      loadAverageAtStart: loadBefore,
      loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))),
      catchUp: catchUpResult,
      detection: detectionResult,
      budget: {
        catchUpCold:
          cold && cold.checkpointsPerSecond >= 1000 && cold.credited === deposits ? 'met' : 'MISSED',
        catchUpWarm:
          warm && warm.checkpointsPerSecond >= 1000 && warm.credited === deposits ? 'met' : 'MISSED',
        detection: detectionResult.p99Ms < pollIntervalMs + 500 ? 'met' : 'MISSED',
      },
    };
  } finally {
    node.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      deposits: { type: 'string', default: '500' },
      checkpoints: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '2' },
      'latency-samples': { type: 'string', default: '30' },
      'poll-ms': { type: 'string', default: '1000' },
    },
  });
  const report = await benchScanSui({
    deposits: Number(values.deposits),
    checkpoints: Number(values.checkpoints),
    rounds: Number(values.rounds),
    latencySamples: Number(values['latency-samples']),
    pollIntervalMs: Number(values['poll-ms']),
  });
  console.log(JSON.stringify(report, null, 2));
}
