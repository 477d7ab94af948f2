import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { spawnKassa } from '../helpers/cli.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { HOT, type TronWorld, tronChainConfig, tronWorld, USDT } from '../helpers/tron-chain.ts';
import { type Gate, startGate } from './gate.ts';

/*
 * `kassa worker` sweeping on TRON, SIGKILLed between the TRX top-up and the transfer (the fake node
 * mines only when the test does, so the worker waits there for the top-up to be solid), and between
 * signing the transfer and its broadcast (the gate holds it). Restarted, exactly one top-up and one
 * transfer; the USDT arrives once.
 */
let w: TronWorld;
let m: MerchantCreated;
let gate: Gate;
let configFile: string;
let worker: ChildProcess | null = null;
let n = 0;

beforeAll(async () => {
  w = await tronWorld();
  m = await w.h.merchant('V3');
  gate = await startGate(w.node.url);
  configFile = join(w.h.dir, 'kassa.json');
  const sweep = { destination: 'hot', nativeValue: '0.3', maxFeeRatio: 0.5, schedule: '* * * * * *' };
  writeFileSync(
    configFile,
    JSON.stringify(
      deepMerge(tronChainConfig([gate.url], { pollIntervalMs: 100 }), { chains: { TRON: { sweep } } }),
    ),
  );
});
afterEach(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
  gate.open();
});
afterAll(async () => {
  await gate?.stop();
  await w?.close();
});

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
      symbol: 'USDT',
      chain: 'TRON',
      orderId: `tk-${++n}`,
    }),
  );
  expect(r.code).toBe(200);
  await w.pay('USDT', r.data.address, amount);
  w.solidify();
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
        w.mine(5);
        return (await sweepOf(address))?.status;
      },
      { timeout: 60_000, interval: 300 },
    )
    .toBe('final');
  await kill(again);
}

describe('a TRON worker killed with SIGKILL while sweeping', () => {
  it('between the TRX top-up and the transfer: no second top-up, one transfer', async () => {
    const address = await paidOrder(8_000_000n);
    const before = w.node.trc20Balance(USDT, HOT);
    const child = startWorker();
    await expect
      .poll(async () => (await txsOf(address)).map((t) => [t.role, t.status]), {
        timeout: 30_000,
        interval: 100,
      })
      .toEqual([['topup', 'broadcast']]);
    w.mine(1); // on chain, not solid yet
    await kill(child);
    await restartUntilFinal(address);
    expect((await txsOf(address)).map((t) => [t.role, t.status])).toEqual([
      ['topup', 'final'],
      ['transfer', 'final'],
    ]);
    expect(w.node.trc20Balance(USDT, address)).toBe(0n);
    expect(w.node.trc20Balance(USDT, HOT) - before).toBe(8_000_000n);
  });

  it('between signing the transfer and its broadcast: the stored bytes go out after the restart', async () => {
    const address = await paidOrder(9_000_000n);
    const before = w.node.trc20Balance(USDT, HOT);
    gate.close('/wallet/broadcasttransaction', { after: 1 }); // the top-up passes, the transfer is held
    const child = startWorker();
    await expect
      .poll(
        async () => {
          if ((await txsOf(address)).length === 1) w.mine(5); // make the top-up solid
          return gate.held;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBeGreaterThan(0);
    const signed = (await txsOf(address)).find((t) => t.role === 'transfer');
    expect(signed?.status).toBe('signed');
    await kill(child);
    gate.open();
    expect(w.node.trc20Balance(USDT, address)).toBe(9_000_000n);
    await restartUntilFinal(address);
    const txs = await txsOf(address);
    expect(txs.map((t) => [t.role, t.status])).toEqual([
      ['topup', 'final'],
      ['transfer', 'final'],
    ]);
    expect(txs[1]?.txHash).toBe(signed?.txHash);
    expect(w.node.trc20Balance(USDT, HOT) - before).toBe(9_000_000n);
  });
});
