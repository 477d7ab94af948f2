import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { spawnKassa } from '../helpers/cli.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { type SuiWorld, suiChainConfig, suiWorld, USDC } from '../helpers/sui-chain.ts';

/*
 * `kassa worker` sweeping on Sui (one sponsored transaction, no top-up), SIGKILLed after the sweep
 * was signed and stored while the node refuses every execution, and after the node executed it but
 * the answer was lost. Restarted, the same transaction (same digest) lands once.
 */
let w: SuiWorld;
let m: MerchantCreated;
let configFile: string;
let worker: ChildProcess | null = null;
let n = 0;

beforeAll(async () => {
  w = await suiWorld();
  m = await w.h.merchant('V3');
  configFile = join(w.h.dir, 'kassa.json');
  const sweep = { destination: 'hot', nativeValue: '3', schedule: '* * * * * *' };
  writeFileSync(
    configFile,
    JSON.stringify(
      deepMerge(suiChainConfig(w.node, { pollIntervalMs: 100 }), { chains: { SUI: { sweep } } }),
    ),
  );
});
afterEach(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
  w.node.heal();
});
afterAll(() => w?.close());

function startWorker(): ChildProcess {
  worker = spawnKassa(['worker', '--config', configFile], {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
  });
  worker.stdout?.resume();
  worker.stderr?.resume();
  return worker;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function paidOrder(amount: bigint): Promise<string> {
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, {
      amount: (Number(amount) / 1e6).toString(),
      symbol: 'USDC',
      chain: 'SUI',
      orderId: `sk-${++n}`,
    }),
  );
  expect(r.code).toBe(200);
  await w.pay('USDC', r.data.address, amount);
  await w.scan();
  return r.data.address;
}

const sweepOf = async (address: string) => (await w.h.rt.db.listSweeps()).find((s) => s.address === address);
const txsOf = async (address: string) => {
  const s = await sweepOf(address);
  return s ? w.h.rt.db.sweepTxsOf(s.id) : [];
};

async function restartUntilFinal(address: string) {
  const again = startWorker();
  await expect
    .poll(
      async () => {
        w.seal();
        return (await sweepOf(address))?.status;
      },
      { timeout: 60_000, interval: 300 },
    )
    .toBe('final');
  await kill(again);
}

describe('a Sui worker killed with SIGKILL while sweeping', () => {
  it('between signing and broadcast (the node refuses every execution): the stored transaction lands after the restart', async () => {
    const address = await paidOrder(6n * USDC);
    const before = await w.balanceOf(w.hot, w.node.usdcType);
    w.node.fail({ mode: 'unavailable', methods: ['ExecuteTransaction'] });
    const child = startWorker();
    await expect
      .poll(async () => (await txsOf(address)).map((t) => [t.role, t.status]), {
        timeout: 30_000,
        interval: 100,
      })
      .toEqual([['transfer', 'signed']]);
    const [signed] = await txsOf(address);
    await kill(child);
    w.node.heal();
    expect(await w.balanceOf(address, w.node.usdcType)).toBe(6n * USDC);
    await restartUntilFinal(address);
    const txs = await txsOf(address);
    expect(txs.map((t) => [t.role, t.status, t.txHash])).toEqual([['transfer', 'final', signed?.txHash]]);
    expect(await w.balanceOf(address, w.node.usdcType)).toBe(0n);
    expect((await w.balanceOf(w.hot, w.node.usdcType)) - before).toBe(6n * USDC);
  });

  it('while the execution answer is lost (executed, never told): the same digest, swept once', async () => {
    const address = await paidOrder(7n * USDC);
    const before = await w.balanceOf(w.hot, w.node.usdcType);
    w.node.fail({ mode: 'unavailable', methods: ['ExecuteTransaction'], phase: 'after' });
    const child = startWorker();
    await expect
      .poll(async () => w.balanceOf(address, w.node.usdcType), { timeout: 30_000, interval: 100 })
      .toBe(0n);
    await kill(child);
    w.node.heal();
    await restartUntilFinal(address);
    expect((await txsOf(address)).map((t) => [t.role, t.status])).toEqual([['transfer', 'final']]);
    expect((await w.balanceOf(w.hot, w.node.usdcType)) - before).toBe(7n * USDC);
  });
});
