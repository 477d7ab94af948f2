/**
 * Scanner benchmark (issue 3; TRON and SUI parts live in bench/scan-tron.ts and bench/scan-sui.ts).
 *
 *   npx tsx bench/scan.ts [--deposits 500] [--blocks 2000] [--latency-samples 30]
 *
 * 1. Catch-up: with the worker stopped, mine `blocks` blocks on anvil holding `deposits` deposits to
 *    as many open orders; then time one scanner run crediting all of them (blocks/s, deposits/s).
 *    Budget: ≥ 1,000 blocks/s against local anvil.
 * 2. Detection: anvil mining a block every second, the worker running (poll interval 1 s,
 *    confirmations 1); for each payment, the time from its block appearing to its order reaching
 *    SUCCESS (p50, p99). Budget: p99 < poll interval + 500 ms.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { encodeFunctionData, parseAbi } from 'viem';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import { startEvmDevnet } from '../src/devnet/evm/devnet.ts';
import { createKeyRing } from '../src/keys/key-ring.ts';
import { createCollection } from '../src/services/create-collection.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { listTokens } from '../src/services/resolve-token.ts';
import { scanChain } from '../src/services/scan-chain/scan-chain.ts';
import { customer, devnetChainConfig } from '../test/helpers/evm-chain.ts';
import { makeHarness, TEST_MNEMONIC } from '../test/helpers/harness.ts';
import { chainJobs } from '../workers/jobs/chain-jobs.ts';
import { startWorker } from '../workers/main.ts';

const { values } = parseArgs({
  options: {
    deposits: { type: 'string', default: '500' },
    blocks: { type: 'string', default: '2000' },
    'latency-samples': { type: 'string', default: '30' },
  },
});
const DEPOSITS = Number(values.deposits);
const BLOCKS = Number(values.blocks);
const SAMPLES = Number(values['latency-samples']);
const transferAbi = parseAbi(['function transfer(address,uint256)']);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function catchUp() {
  const keys = createKeyRing(TEST_MNEMONIC);
  const devnet = await startEvmDevnet({
    chains: ['ETH'],
    fund: { accounts: [customer.address, keys.hotWallet('ETH').address as `0x${string}`] },
  });
  const c = devnet.get('ETH');
  const h = await makeHarness(devnetChainConfig(devnet, { confirmations: 1 }), {
    clockStart: Date.now(),
    chains: true,
  });
  try {
    const m = await h.merchant('V3');
    const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
    if (!merchant) throw new Error('merchant');
    const addresses: string[] = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const r = await createCollection(h.rt, merchant, {
        amount: '1',
        symbol: 'USDC',
        chain: 'ETH',
        orderId: `b-${i}`,
      });
      addresses.push(r.address);
    }
    const start = Number(await c.client.getBlockNumber());
    await c.client.setAutomine(false);
    const filler = Math.max(0, Math.floor(BLOCKS / DEPOSITS) - 1);
    let nonce = await c.client.getTransactionCount({ address: customer.address });
    const t0 = performance.now();
    for (const to of addresses) {
      await c.client.sendTransaction({
        account: customer,
        chain: c.client.chain,
        to: c.tokens.USDC.address,
        data: encodeFunctionData({
          abi: transferAbi,
          functionName: 'transfer',
          args: [to as `0x${string}`, 1_000_000n],
        }),
        nonce: nonce++,
        gas: 100_000n,
      });
      await c.client.mine({ blocks: 1 });
      if (filler > 0) await c.client.mine({ blocks: filler });
    }
    const end = Number(await c.client.getBlockNumber());
    const prepMs = performance.now() - t0;
    const adapter = h.rt.adapters.get('ETH');
    if (!adapter) throw new Error('adapter');
    await adapter.connect();
    const tokens = (await listTokens(h.rt)).filter((t) => t.chain === 'ETH');
    const profiler = process.env.KASSA_BENCH_PROFILE
      ? new (await import('node:inspector/promises')).Session()
      : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const started = performance.now();
    const summary = await scanChain(h.rt, adapter, tokens, new AbortController().signal);
    const ms = performance.now() - started;
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      (await import('node:fs')).writeFileSync(
        process.env.KASSA_BENCH_PROFILE as string,
        JSON.stringify(profile),
      );
    }
    const credited = Array.from({ length: DEPOSITS }, (_, i) =>
      findOrderByMerchantOrderId(h.db, m.merchantId, `b-${i}`),
    ).filter((o) => o?.status === 'SUCCESS').length;
    return {
      blocksMined: end - start,
      deposits: DEPOSITS,
      preparationMs: Math.round(prepMs),
      blocksScanned: summary.blocks,
      credited,
      ms: Math.round(ms),
      blocksPerSecond: Math.round((summary.blocks * 1000) / ms),
      depositsPerSecond: Math.round((credited * 1000) / ms),
    };
  } finally {
    await h.close();
    await devnet.stop();
  }
}

async function detection() {
  const keys = createKeyRing(TEST_MNEMONIC);
  const devnet = await startEvmDevnet({
    chains: ['ETH'],
    fund: { accounts: [customer.address, keys.hotWallet('ETH').address as `0x${string}`] },
    blockTime: 1,
  });
  const c = devnet.get('ETH');
  const h = await makeHarness(devnetChainConfig(devnet, { confirmations: 1, pollIntervalMs: 1000 }), {
    clockStart: Date.now(),
    chains: true,
  });
  const worker = await startWorker(h.rt, [chainJobs]);
  try {
    const m = await h.merchant('V3');
    const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
    if (!merchant) throw new Error('merchant');
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const orderId = `d-${i}`;
      const r = await createCollection(h.rt, merchant, {
        amount: '1',
        symbol: 'USDC',
        chain: 'ETH',
        orderId,
      });
      const hash = await c.client.sendTransaction({
        account: customer,
        chain: c.client.chain,
        to: c.tokens.USDC.address,
        data: encodeFunctionData({
          abi: transferAbi,
          functionName: 'transfer',
          args: [r.address as `0x${string}`, 1_000_000n],
        }),
      });
      let minedAt = 0;
      let doneAt = 0;
      while (!doneAt) {
        if (!minedAt) {
          const receipt = await c.client.getTransactionReceipt({ hash }).catch(() => null);
          if (receipt) minedAt = performance.now();
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
      samples: SAMPLES,
      pollIntervalMs: 1000,
      blockTimeMs: 1000,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      maxMs: Math.round(latencies.at(-1) ?? 0),
    };
  } finally {
    await worker.stop();
    await h.close();
    await devnet.stop();
  }
}

const report = {
  date: new Date().toISOString(),
  machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
  loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
  catchUp: await catchUp(),
  detection: await detection(),
};
const budget = {
  catchUp: report.catchUp.blocksPerSecond >= 1000 && report.catchUp.credited === DEPOSITS ? 'met' : 'MISSED',
  detection: report.detection.p99Ms < 1500 ? 'met' : 'MISSED',
};
console.log(JSON.stringify({ ...report, budget }, null, 2));
