/**
 * Sweeping benchmark (issue 12).
 *
 *   npx tsx bench/sweep.ts [--addresses 1000]
 *
 * On anvil (ETH, USDT that returns nothing from `transfer`, as on mainnet): `addresses` orders paid in
 * full and final, then (1) the time `planSweeps` takes to price them all, and (2) the time the sweep
 * passes take to move every one to the hot wallet (each pass: top-ups from the hot wallet; a block
 * mined between passes, confirmations 1, as a chain would; then the transfers), with the number of
 * passes, and the fees: what the operator paid in all (the costs Kassa recorded, checked against the
 * hot wallet's ETH), per sweep, and the gas of top-ups and transfers. Prints one JSON object.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { encodeFunctionData, parseAbi } from 'viem';
import { deepMerge } from '../src/config/load.ts';
import { startEvmDevnet } from '../src/devnet/evm/devnet.ts';
import { tokenBalance } from '../src/devnet/evm/tokens.ts';
import { createKeyRing } from '../src/keys/key-ring.ts';
import { createCollection } from '../src/services/create-collection.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { planSweeps } from '../src/services/plan-sweeps.ts';
import { listTokens } from '../src/services/resolve-token.ts';
import { runSweeps } from '../src/services/run-sweeps.ts';
import { scanChain } from '../src/services/scan-chain/scan-chain.ts';
import { sweepSettings } from '../src/services/sweep-settings.ts';
import { customer, devnetChainConfig } from '../test/helpers/evm-chain.ts';
import { makeHarness, TEST_MNEMONIC } from '../test/helpers/harness.ts';

const { values } = parseArgs({ options: { addresses: { type: 'string', default: '1000' } } });
const N = Number(values.addresses);
const transferAbi = parseAbi(['function transfer(address,uint256)']);
const AMOUNT = 10_000_000n; // 10 USDT each

const keys = createKeyRing(TEST_MNEMONIC);
const hot = keys.hotWallet('ETH').address as `0x${string}`;
const devnet = await startEvmDevnet({ chains: ['ETH'], fund: { accounts: [customer.address, hot] } });
const c = devnet.get('ETH');
const h = await makeHarness(
  deepMerge(devnetChainConfig(devnet, { confirmations: 1 }), {
    chains: {
      ETH: {
        sweep: { destination: 'hot', minAmount: { USDT: '1' }, nativeValue: '100', batchSize: 100_000 },
      },
    },
  }) as Record<string, unknown>,
  { clockStart: Date.now(), chains: true },
);
try {
  const m = await h.merchant('V3');
  const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
  if (!merchant) throw new Error('merchant');
  const addresses: string[] = [];
  for (let i = 0; i < N; i++)
    addresses.push(
      (
        await createCollection(h.rt, merchant, {
          amount: '10',
          symbol: 'USDT',
          chain: 'ETH',
          orderId: `s-${i}`,
        })
      ).address,
    );
  await c.client.setAutomine(false);
  let nonce = await c.client.getTransactionCount({ address: customer.address });
  for (const [i, to] of addresses.entries()) {
    await c.client.sendTransaction({
      account: customer,
      chain: c.client.chain,
      to: c.tokens.USDT.address,
      data: encodeFunctionData({
        abi: transferAbi,
        functionName: 'transfer',
        args: [to as `0x${string}`, AMOUNT],
      }),
      nonce: nonce++,
      gas: 100_000n,
    });
    if (i % 100 === 99) await c.client.mine({ blocks: 1 });
  }
  await c.client.mine({ blocks: 3 });
  await c.client.setAutomine(true);
  const adapter = h.rt.adapters.get('ETH');
  if (!adapter) throw new Error('adapter');
  await adapter.connect();
  const tokens = (await listTokens(h.rt)).filter((t) => t.chain === 'ETH');
  await scanChain(h.rt, adapter, tokens, new AbortController().signal);

  const settings = sweepSettings(h.rt.config, 'ETH', h.rt.keys);
  let t = performance.now();
  const plan = await planSweeps(h.rt, adapter, settings);
  const planMs = performance.now() - t;
  const worth = plan.filter((p) => p.verdict === 'sweep').length;

  const hotEthBefore = await c.client.getBalance({ address: hot });
  const hotUsdtBefore = await tokenBalance(c.client, c.tokens.USDT.address, hot);
  t = performance.now();
  let passes = 0;
  const passMs: number[] = [];
  for (;;) {
    const p0 = performance.now();
    await runSweeps(h.rt, adapter, new AbortController().signal, { holder: 'bench' });
    passMs.push(Math.round(performance.now() - p0));
    passes++;
    if ((await h.rt.db.openSweeps('ETH')).length === 0) break;
    if (passes > 20) throw new Error('sweeps still open after 20 passes');
    await c.client.mine({ blocks: 1 });
  }
  const sweepMs = performance.now() - t;
  const hotEthSpent = hotEthBefore - (await c.client.getBalance({ address: hot }));
  const hotUsdtGained = (await tokenBalance(c.client, c.tokens.USDT.address, hot)) - hotUsdtBefore;
  const costs = await h.rt.db.sumOperatorCosts();
  const sweeps = await h.rt.db.listSweeps({ limit: N * 2 });
  const gas = { topup: 0n, transfer: 0n };
  let leftOnAddresses = 0n;
  for (const s of sweeps) {
    for (const tx of await h.rt.db.sweepTxsOf(s.id)) {
      const receipt = await c.client.getTransactionReceipt({ hash: tx.txHash as `0x${string}` });
      if (tx.role === 'topup') gas.topup += receipt.gasUsed;
      if (tx.role === 'transfer') gas.transfer += receipt.gasUsed;
    }
  }
  for (const a of addresses.slice(0, 50))
    leftOnAddresses += await c.client.getBalance({ address: a as `0x${string}` });
  const recorded = costs.reduce((s, x) => s + x.amountBase, 0n);
  const n = BigInt(sweeps.length);
  console.log(
    JSON.stringify(
      {
        addresses: N,
        plannedToSweep: worth,
        planMs: Math.round(planMs),
        planPerAddressMs: +(planMs / N).toFixed(2),
        sweepMs: Math.round(sweepMs),
        sweepsPerSecond: +((sweeps.length * 1000) / sweepMs).toFixed(1),
        passes,
        passMs,
        swept: sweeps.filter((s) => s.status === 'final').length,
        usdtToHot: (Number(hotUsdtGained) / 1e6).toFixed(2),
        feesEth: {
          recordedCosts: (Number(recorded) / 1e18).toFixed(9),
          hotWalletSpent: (Number(hotEthSpent) / 1e18).toFixed(9),
          perSweep: (Number(recorded / n) / 1e18).toFixed(9),
          leftOnAddressesMarginPerSweep: (Number(leftOnAddresses / 50n) / 1e18).toFixed(9),
        },
        gasPerSweep: { topup: Number(gas.topup / n), transfer: Number(gas.transfer / n) },
        gasPrice: (await c.client.getGasPrice()).toString(),
        machine: { cpus: cpus().length, load1: +(loadavg()[0] ?? 0).toFixed(2), node: process.version },
      },
      null,
      2,
    ),
  );
} finally {
  await h.close();
  await devnet.stop();
}
