import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { kassaAsync, spawnKassa } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * `kassa worker` sweeping, killed with SIGKILL at the two moments a sweep is most fragile: after the
 * hot wallet's gas top-up went out but before the deposit's transfer is signed (anvil mines nothing
 * until the test does, so the worker waits there for the top-up to be final), and after the
 * transfer was signed and stored but before it reached the node (held by the fault proxy).
 * Restarted, the worker finishes with exactly one top-up and one transfer, and the tokens arrive once.
 */
let w: EvmWorld;
let proxy: FaultProxy;
let m: MerchantCreated;
let configFile: string;
let worker: ChildProcess | null = null;
let n = 0;

const SWEEP = { destination: 'hot', minAmount: { USDT: '1' }, nativeValue: '100', schedule: '* * * * * *' };

beforeAll(async () => {
  w = await evmWorld(['ETH'], { confirmations: 2 });
  proxy = await startFaultProxy(w.devnet.get('ETH').url);
  m = await w.h.merchant('V3');
  configFile = join(w.h.dir, 'kassa.json');
  writeFileSync(
    configFile,
    JSON.stringify(
      deepMerge(
        devnetChainConfig(w.devnet, { confirmations: 2, pollIntervalMs: 100, rpc: () => [proxy.url] }),
        {
          chains: { ETH: { sweep: SWEEP } },
        },
      ),
    ),
  );
});
afterEach(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
  proxy.clear();
});
afterAll(async () => {
  await proxy?.close();
  await w?.close();
});

function startWorker(): ChildProcess {
  worker = spawnKassa(['worker', '--config', configFile], {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
  });
  return worker;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** A USDT order paid in full and final, before any worker runs. */
async function paidOrder(amount: bigint): Promise<string> {
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, {
      amount: (Number(amount) / 1e6).toString(),
      symbol: 'USDT',
      chain: 'ETH',
      orderId: `k-${++n}`,
    }),
  );
  expect(r.code).toBe(200);
  await w.pay('ETH', 'USDT', r.data.address, amount);
  await w.mine('ETH', 2);
  await w.scan('ETH');
  return r.data.address;
}

const usdt = (who: string) =>
  tokenBalance(w.devnet.get('ETH').client, w.devnet.get('ETH').tokens.USDT.address, who as Address);
const sweepOf = async (address: string) => (await w.h.rt.db.listSweeps()).find((s) => s.address === address);
const txsOf = async (address: string) => {
  const s = await sweepOf(address);
  return s ? w.h.rt.db.sweepTxsOf(s.id) : [];
};

/** Restarts the worker and mines until the sweep of `address` is final. */
async function restartUntilFinal(address: string) {
  const again = startWorker();
  await expect
    .poll(
      async () => {
        await w.mine('ETH', 1);
        return (await sweepOf(address))?.status;
      },
      { timeout: 60_000, interval: 300 },
    )
    .toBe('final');
  await kill(again);
}

describe('a worker killed with SIGKILL while sweeping', () => {
  // first: a worker killed with SIGKILL holds the hot-wallet lease until it runs out (a command waits for it)
  it('kassa sweeps plan shows what would move without moving it; run, list and costs drive and show the rest', async () => {
    const address = await paidOrder(6_000_000n);
    const dust = await paidOrder(400_000n); // below minAmount 1 USDT
    const env = {
      KASSA_DB: join(w.h.dir, 'kassa.db'),
      KASSA_MNEMONIC: TEST_MNEMONIC,
      KASSA_MASTER_KEY: TEST_MASTER_KEY,
    };
    const cli = async (...args: string[]) => {
      const r = await kassaAsync(['sweeps', ...args, '--config', configFile], env);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return r.stdout;
    };
    const plan = JSON.parse(await cli('plan', '--json')) as {
      address: string;
      verdict: string;
      mode: string;
    }[];
    expect(plan.filter((p) => p.address === address)).toEqual([
      expect.objectContaining({ verdict: 'sweep', mode: 'topup', moves: '6.00', symbol: 'USDT' }),
    ]);
    expect(plan.filter((p) => p.address === dust)).toEqual([
      expect.objectContaining({ verdict: 'below_min' }),
    ]);
    expect(await usdt(address)).toBe(6_000_000n);
    expect(await sweepOf(address)).toBeUndefined();

    expect(await cli('run')).toMatch(/^ETH: 1 started, 0 final, 0 failed, 1 under way$/m);
    await w.mine('ETH', 2); // the top-up becomes final: the transfer is signed and sent
    expect(await cli('run')).toMatch(/^ETH: 0 started, 0 final, 0 failed, 1 under way$/m);
    await w.mine('ETH', 2); // the transfer becomes final
    expect(await cli('run')).toMatch(/^ETH: 0 started, 1 final/m);
    expect(await usdt(address)).toBe(0n);
    expect(await usdt(dust)).toBe(400_000n);

    const list = JSON.parse(await cli('list', '--json', '--status', 'final')) as {
      address: string;
      transactions: unknown[];
    }[];
    expect(list.find((s) => s.address === address)).toMatchObject({
      amount: '6.00',
      symbol: 'USDT',
      destinationKind: 'hot',
      transactions: [
        expect.objectContaining({ role: 'topup', status: 'final' }),
        expect.objectContaining({ role: 'transfer', status: 'final' }),
      ],
    });
    const costs = JSON.parse(await cli('costs', '--json'));
    expect(costs).toEqual([
      expect.objectContaining({ chain: 'ETH', kind: 'gas_topup', symbol: 'ETH', transactions: 1 }),
    ]);
  });
  it('between the top-up and the transfer: no second top-up, one transfer', async () => {
    const address = await paidOrder(9_000_000n);
    const hotBefore = await usdt(w.hot('ETH'));
    const child = startWorker();
    // the top-up is mined at once, but nothing else is: it waits short of final, with no transfer signed
    await expect
      .poll(async () => (await txsOf(address)).map((t) => [t.role, t.status]), {
        timeout: 30_000,
        interval: 100,
      })
      .toEqual([['topup', 'mined']]);
    expect((await sweepOf(address))?.status).toBe('gas_sent');
    await kill(child);
    await restartUntilFinal(address);
    expect((await txsOf(address)).map((t) => [t.role, t.status])).toEqual([
      ['topup', 'final'],
      ['transfer', 'final'],
    ]);
    expect(await usdt(address)).toBe(0n);
    expect((await usdt(w.hot('ETH'))) - hotBefore).toBe(9_000_000n);
  });

  it('between signing the transfer and its broadcast: the stored bytes go out after the restart, never new ones', async () => {
    const address = await paidOrder(11_000_000n);
    const hotBefore = await usdt(w.hot('ETH'));
    // the top-up goes through; the transfer never reaches anvil
    proxy.add({ method: 'eth_sendRawTransaction', after: 1, fault: { kind: 'hold' } });
    const child = startWorker();
    await expect
      .poll(
        async () => {
          if ((await txsOf(address)).length === 1) await w.mine('ETH', 1); // make the top-up final
          return proxy.held;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBeGreaterThan(0);
    const signed = (await txsOf(address)).find((t) => t.role === 'transfer');
    expect(signed?.status).toBe('signed'); // stored before it was sent
    await kill(child);
    // read while the broadcast is still held: clear() lets held requests through to anvil, where
    // the same stored bytes may land before the restart (which then finds them mined)
    expect(await usdt(address)).toBe(11_000_000n);
    proxy.clear();
    await restartUntilFinal(address);
    const txs = await txsOf(address);
    expect(txs.map((t) => [t.role, t.status])).toEqual([
      ['topup', 'final'],
      ['transfer', 'final'],
    ]);
    expect(txs[1]?.txHash).toBe(signed?.txHash);
    expect(await usdt(address)).toBe(0n);
    expect((await usdt(w.hot('ETH'))) - hotBefore).toBe(11_000_000n);
  });
});
