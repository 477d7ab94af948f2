/**
 * Reconciliation benchmark (issue 12).
 *
 *   npx tsx bench/reconcile.ts [--addresses 10000] [--paid 1000] [--runs 3] [--tron 2000]
 *
 * On anvil (ETH, real USDT/USDC): `addresses` collections (each its own deposit address), `paid` of
 * them paid in USDT and scanned to final; then `kassa reconcile`'s service is timed `runs` times over
 * every deposit address and the hot wallet in all three tokens (addresses × 3 balance reads, sent
 * as JSON-RPC batches as of the scanner's checkpoint). Prints the time per run, addresses/s, RPC
 * requests per run and the unexplained count (must be 0). With `--tron N`, the same on the fake
 * TRON node with N addresses (no batch API: reads a few at a time), for comparison.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { encodeFunctionData, parseAbi } from 'viem';
import { startEvmDevnet } from '../src/devnet/evm/devnet.ts';
import { createKeyRing } from '../src/keys/key-ring.ts';
import { createCollection } from '../src/services/create-collection.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { reconcile } from '../src/services/reconcile/reconcile.ts';
import { listTokens } from '../src/services/resolve-token.ts';
import { scanChain } from '../src/services/scan-chain/scan-chain.ts';
import { customer, devnetChainConfig } from '../test/helpers/evm-chain.ts';
import { type Harness, makeHarness, TEST_MNEMONIC } from '../test/helpers/harness.ts';
import { SUN, tronWorld } from '../test/helpers/tron-chain.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '10000' },
    paid: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    tron: { type: 'string', default: '0' },
  },
});
const ADDRESSES = Number(values.addresses);
const PAID = Number(values.paid);
const RUNS = Number(values.runs);
const TRON = Number(values.tron);
const transferAbi = parseAbi(['function transfer(address,uint256)']);

async function collections(h: Harness, chain: 'ETH' | 'TRON', n: number): Promise<string[]> {
  const m = await h.merchant('V3');
  const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
  if (!merchant) throw new Error('merchant');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await createCollection(h.rt, merchant, {
      amount: '1',
      symbol: 'USDT',
      chain,
      orderId: `r-${i}`,
    });
    out.push(r.address);
  }
  return out;
}

async function timeRuns(h: Harness, chain: 'ETH' | 'TRON') {
  const runs: { ms: number; addresses: number; unexplained: number; requests: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const adapter = h.rt.adapters.get(chain);
    const before = adapter?.rpcStatistics?.().reduce((s, e) => s + e.requests, 0) ?? 0;
    const t0 = performance.now();
    const report = await reconcile(h.rt, h.rt.adapters, { chain });
    const ms = performance.now() - t0;
    const after = adapter?.rpcStatistics?.().reduce((s, e) => s + e.requests, 0) ?? 0;
    runs.push({
      ms: Math.round(ms),
      addresses: report.addresses,
      unexplained: report.unexplained,
      requests: after - before,
    });
  }
  return runs.map((r) => ({ ...r, addressesPerSecond: Math.round((r.addresses * 1000) / r.ms) }));
}

async function evm() {
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
    const t0 = performance.now();
    const addresses = await collections(h, 'ETH', ADDRESSES);
    const createdMs = performance.now() - t0;
    await c.client.setAutomine(false);
    let nonce = await c.client.getTransactionCount({ address: customer.address });
    for (const to of addresses.slice(0, PAID)) {
      await c.client.sendTransaction({
        account: customer,
        chain: c.client.chain,
        to: c.tokens.USDT.address,
        data: encodeFunctionData({
          abi: transferAbi,
          functionName: 'transfer',
          args: [to as `0x${string}`, 1_000_000n],
        }),
        nonce: nonce++,
        gas: 100_000n,
      });
    }
    await c.client.mine({ blocks: 1 });
    await c.client.mine({ blocks: 2 });
    await c.client.setAutomine(true);
    const adapter = h.rt.adapters.get('ETH');
    if (!adapter) throw new Error('adapter');
    await adapter.connect();
    const tokens = (await listTokens(h.rt)).filter((t) => t.chain === 'ETH');
    await scanChain(h.rt, adapter, tokens, new AbortController().signal);
    await scanChain(h.rt, adapter, tokens, new AbortController().signal);
    return {
      chain: 'ETH',
      addresses: ADDRESSES,
      paid: PAID,
      tokens: tokens.length,
      balanceReads: (ADDRESSES + 1) * tokens.length,
      preparationMs: Math.round(performance.now() - t0),
      collectionsMs: Math.round(createdMs),
      runs: await timeRuns(h, 'ETH'),
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    };
  } finally {
    await h.close();
    await devnet.stop();
  }
}

async function tron() {
  const w = await tronWorld();
  try {
    const addresses = await collections(w.h, 'TRON', TRON);
    for (const to of addresses.slice(0, Math.min(PAID, 200))) await w.pay('USDT', to, SUN, { mine: false });
    w.solidify();
    await w.scan();
    await w.scan();
    return {
      chain: 'TRON',
      addresses: TRON,
      balanceReads: (TRON + 1) * 2,
      runs: await timeRuns(w.h, 'TRON'),
    };
  } finally {
    await w.close();
  }
}

const results: unknown[] = [await evm()];
if (TRON > 0) results.push(await tron());
console.log(
  JSON.stringify(
    { node: process.version, cpus: cpus().length, loadavg: loadavg().map((l) => l.toFixed(2)), results },
    null,
    2,
  ),
);
