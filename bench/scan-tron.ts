/**
 * TRON scanner benchmark (issue 5), against the fake TRON node in this process.
 *
 *   npx tsx bench/scan-tron.ts [--deposits 500] [--blocks 2000] [--latency-samples 30]
 *
 * 1. Catch-up: with the worker stopped, mine `blocks` blocks holding `deposits` USDT deposits to as
 *    many open orders (one every blocks/deposits blocks); then time one scanner run (confirmations
 *    1) crediting all of them: blocks/s, deposits/s. Budget: ≥ 1,000 blocks/s. Measured with the
 *    fake's lazy block signatures paid before timing (`catchUp`, what a real node serves) and
 *    without (`catchUpCold`).
 * 2. Detection: the node producing a block every second, the worker running (poll interval 1 s,
 *    confirmations 1); for each payment, the time from its block appearing to its order reaching
 *    SUCCESS (p50, p99). Budget: p99 < poll interval + 500 ms.
 * The fake node runs in its own process (as anvil does for bench/scan.ts), driven through its
 * `/_fake/*` controls, so the scanner does not share an event loop with the node it reads.
 * The machine is shared: the load average at start and end is part of the report.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { addressWord, toHex41 } from '../src/chains/tron/address.ts';
import { buildTransaction, signTransaction } from '../src/chains/tron/transaction.ts';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import { type FakeTronState, startFakeTronNode } from '../src/devnet/tron/index.ts';
import { createCollection } from '../src/services/create-collection.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { listTokens } from '../src/services/resolve-token.ts';
import { scanChain } from '../src/services/scan-chain/scan-chain.ts';
import { makeHarness } from '../test/helpers/harness.ts';
import { CUSTOMER, CUSTOMER_KEY, tronChainConfig, tronGenesis, USDT } from '../test/helpers/tron-chain.ts';
import { chainJobs } from '../workers/jobs/chain-jobs.ts';
import { startWorker } from '../workers/main.ts';

export interface ScanTronOptions {
  deposits?: number;
  blocks?: number;
  latencySamples?: number;
}

const POLL_MS = 1000;
let paid = 0;
const LONG_TTL = { orders: { collectionTtlSeconds: 7 * 24 * 3600 } };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The fake node in a child process, driven over HTTP. */
interface RemoteNode {
  url: string;
  state(): Promise<FakeTronState>;
  mine(n: number): Promise<FakeTronState>;
  close(): Promise<void>;
}

async function control(url: string, path: string, body: unknown = {}): Promise<FakeTronState> {
  const res = await fetch(`${url}/_fake/${path}`, { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as FakeTronState;
}

/** Starts this file with `--serve-node` in a child process; resolves once it prints its URL. */
async function startRemoteNode(blockIntervalMs: number): Promise<RemoteNode> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-node', String(blockIntervalMs)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the fake node exited with ${code}`)));
  });
  return {
    url,
    state: () => control(url, 'state'),
    mine: (n) => control(url, 'mine', { n }),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The customer pays `amount` USDT to `to`: built and signed here, one broadcast request. Returns the txid. */
async function pay(node: RemoteNode, to: string, amount: bigint): Promise<string> {
  const state = await node.state();
  const tx = signTransaction(
    buildTransaction(
      {
        type: 'TriggerSmartContract',
        owner: toHex41(CUSTOMER),
        contract: toHex41(USDT),
        data: `a9059cbb${addressWord(to)}${amount.toString(16).padStart(64, '0')}`,
      },
      {
        refBlockId: state.solidBlockId,
        expiration: state.headTimestamp + 180_000,
        timestamp: Date.now() + paid++, // distinct txids for equal payments
      },
      50_000_000n,
    ),
    Buffer.from(CUSTOMER_KEY, 'hex'),
  );
  const res = await fetch(`${node.url}/wallet/broadcasttransaction`, {
    method: 'POST',
    body: JSON.stringify(tx),
  });
  const answer = (await res.json()) as { result?: boolean; code?: string };
  if (answer.result !== true) throw new Error(`payment refused: ${answer.code}`);
  return tx.txID;
}

async function world(blockIntervalMs: number, pollIntervalMs: number) {
  const node = await startRemoteNode(blockIntervalMs);
  const h = await makeHarness(
    { ...tronChainConfig([node.url], { confirmations: 1, pollIntervalMs }), ...LONG_TTL },
    { clockStart: (await node.state()).headTimestamp, chains: true },
  );
  const m = await h.merchant('V3');
  const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
  if (!merchant) throw new Error('merchant');
  const adapter = h.rt.adapters.get('TRON');
  if (!adapter) throw new Error('no TRON adapter');
  return { node, h, m, merchant, adapter };
}

/**
 * The fake node signs a block (secp256k1, ≈1–3 ms) the first time it serves it; a real node signed
 * it when it produced it. Reading every block once before timing leaves that cost out of the
 * scanner's figure (`warm`); the cold run keeps it in, for comparison.
 */
async function presign(node: RemoteNode, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n += 100) {
    await fetch(`${node.url}/wallet/getblockbylimitnext`, {
      method: 'POST',
      body: JSON.stringify({ startNum: n, endNum: Math.min(to + 1, n + 100) }),
    }).then((r) => r.text());
  }
}

async function catchUp(deposits: number, blocks: number, warm: boolean) {
  const { node, h, m, merchant, adapter } = await world(0, POLL_MS);
  try {
    const addresses: string[] = [];
    for (let i = 0; i < deposits; i++) {
      const r = await createCollection(h.rt, merchant, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: `b-${i}`,
      });
      addresses.push(r.address);
    }
    await adapter.connect();
    const tokens = (await listTokens(h.rt)).filter((t) => t.chain === 'TRON');
    // first pass with nothing paid yet: the checkpoint sits at the head, as for a worker that was stopped
    await scanChain(h.rt, adapter, tokens, new AbortController().signal);
    const start = (await node.state()).head;
    const every = Math.max(1, Math.floor(blocks / deposits));
    const t0 = performance.now();
    let head = start;
    for (const to of addresses) {
      await pay(node, to, 1_000_000n);
      head = (await node.mine(every)).head;
    }
    if (head - start < blocks) head = (await node.mine(blocks - (head - start))).head;
    if (warm) await presign(node, start, head);
    const prepMs = performance.now() - t0;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const summary = await scanChain(h.rt, adapter, tokens, new AbortController().signal);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const credited = Array.from({ length: deposits }, (_, i) =>
      findOrderByMerchantOrderId(h.db, m.merchantId, `b-${i}`),
    ).filter((o) => o?.status === 'SUCCESS').length;
    return {
      blocksSignedBeforeTiming: warm,
      blocksMined: head - start,
      deposits,
      preparationMs: Math.round(prepMs),
      blocksScanned: summary.blocks,
      credited,
      ms: Math.round(ms),
      blocksPerSecond: Math.round((summary.blocks * 1000) / ms),
      depositsPerSecond: Math.round((credited * 1000) / ms),
      /** CPU the scanner's process used meanwhile (the node runs in another process): a load-independent figure */
      scannerCpuMs: Math.round(cpuMs),
      blocksPerCpuSecond: Math.round((summary.blocks * 1000) / cpuMs),
    };
  } finally {
    await h.close();
    await node.close();
  }
}

async function detection(samples: number) {
  const { node, h, m, merchant } = await world(1000, POLL_MS);
  const worker = await startWorker(h.rt, [chainJobs]);
  try {
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const orderId = `d-${i}`;
      const r = await createCollection(h.rt, merchant, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId,
      });
      const txid = await pay(node, r.address, 1_000_000n);
      let minedAt = 0;
      let doneAt = 0;
      while (!doneAt) {
        if (!minedAt) {
          const res = await fetch(`${node.url}/wallet/gettransactioninfobyid`, {
            method: 'POST',
            body: JSON.stringify({ value: txid }),
          });
          if (Object.keys((await res.json()) as object).length > 0) minedAt = performance.now();
        }
        if (minedAt && findOrderByMerchantOrderId(h.db, m.merchantId, orderId)?.status === 'SUCCESS')
          doneAt = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      latencies.push(doneAt - minedAt);
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700)); // spread over the block interval
    }
    latencies.sort((a, b) => a - b);
    return {
      samples,
      pollIntervalMs: POLL_MS,
      blockTimeMs: 1000,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      maxMs: Math.round(latencies.at(-1) ?? 0),
    };
  } finally {
    await worker.stop();
    await h.close();
    await node.close();
  }
}

/**
 * Runs both measurements and returns the report (figures, budgets met or missed, the machine and
 * its load average at start and end).
 */
export async function benchScanTron(options: ScanTronOptions = {}) {
  const deposits = options.deposits ?? 500;
  const blocks = options.blocks ?? 2000;
  const samples = options.latencySamples ?? 30;
  const date = new Date().toISOString();
  const loadAverageAtStart = loadavg().map((l) => Number(l.toFixed(2)));
  const catchUpResult = await catchUp(deposits, blocks, true);
  const catchUpCold = await catchUp(deposits, blocks, false);
  const detectionResult = await detection(samples);
  return {
    date,
    machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
    loadAverageAtStart,
    loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))),
    catchUp: catchUpResult,
    catchUpCold,
    detection: detectionResult,
    budget: {
      catchUp:
        catchUpResult.blocksPerSecond >= 1000 && catchUpResult.credited === deposits ? 'met' : 'MISSED',
      detection: detectionResult.p99Ms < POLL_MS + 500 ? 'met' : 'MISSED',
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && process.argv[2] === '--serve-node') {
  const node = await startFakeTronNode({ blockIntervalMs: Number(process.argv[3]), genesis: tronGenesis() });
  process.on('SIGTERM', () => node.close().then(() => process.exit(0)));
  console.log(node.url);
} else if (isMain) {
  const { values } = parseArgs({
    options: {
      deposits: { type: 'string', default: '500' },
      blocks: { type: 'string', default: '2000' },
      'latency-samples': { type: 'string', default: '30' },
    },
  });
  const report = await benchScanTron({
    deposits: Number(values.deposits),
    blocks: Number(values.blocks),
    latencySamples: Number(values['latency-samples']),
  });
  console.log(JSON.stringify(report, null, 2));
}
