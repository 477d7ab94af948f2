import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { spawnKassa } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';

let w: EvmWorld;
let m: MerchantCreated;
let configFile: string;
let worker: ChildProcess | null = null;
/**
 * The worker process reaches anvil through this proxy, which holds one chosen request: the worker
 * is frozen at an exact point (inside a scan step, or after a broadcast reached the node but before
 * its answer came back) and killed there, as test/tron/worker-crash.test.ts does with its gate.
 */
let proxy: FaultProxy;

beforeAll(async () => {
  w = await evmWorld(['ETH'], { confirmations: 2 });
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'ETH', 'USDC', '1000');
  configFile = join(w.h.dir, 'kassa.json');
  proxy = await startFaultProxy(w.devnet.get('ETH').url);
  const config = devnetChainConfig(w.devnet, {
    confirmations: 2,
    pollIntervalMs: 100,
    rpc: () => [proxy.url],
  }) as {
    chains: Record<string, Record<string, unknown>>;
  };
  (config.chains.ETH as Record<string, unknown>).maxLogRange = 3; // many small scan steps: a kill lands mid-scan
  writeFileSync(configFile, JSON.stringify(config));
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await proxy?.close();
  await w?.close();
});

function startWorkerProcess(): ChildProcess {
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

const count = (sql: string) => (w.h.db.$client.prepare(sql).get() as { n: number }).n;

describe('a worker killed with SIGKILL and restarted', () => {
  it('misses no deposit and counts none twice when killed in the middle of a scan', async () => {
    const orders: { orderId: string; address: string }[] = [];
    for (let i = 0; i < 40; i++) {
      const orderId = `k-${i}`;
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: '2',
          symbol: 'USDC',
          chain: 'ETH',
          orderId,
        }),
      );
      orders.push({ orderId, address: r.data.address });
    }
    const c = w.devnet.get('ETH');
    let half = 0n;
    for (const [i, o] of orders.entries()) {
      await w.pay('ETH', 'USDC', o.address, 2_000_000n);
      if (i === 19) half = await c.client.getBlockNumber(); // anvil mines each payment in its own block
    }
    await w.mine('ETH', 2);
    // freeze the worker on the first read of a block past the first twenty payments, mid-scan
    proxy.add({
      method: 'eth_getLogs',
      match: (call) => BigInt((call.params as [{ fromBlock: string }])[0].fromBlock) > half,
      times: 1,
      fault: { kind: 'hold' },
    });
    const child = startWorkerProcess();
    await expect.poll(() => proxy.held, { timeout: 30_000 }).toBe(1);
    await kill(child);
    proxy.clear();
    const creditedAtKill = count("SELECT count(*) AS n FROM orders WHERE status = 'SUCCESS'");
    expect(creditedAtKill).toBeGreaterThanOrEqual(20); // every step before the frozen one is recorded
    expect(creditedAtKill).toBeLessThan(40);

    const again = startWorkerProcess();
    await expect
      .poll(() => count("SELECT count(*) AS n FROM orders WHERE status = 'SUCCESS'"), { timeout: 30_000 })
      .toBe(40);
    await kill(again);
    for (const o of orders) {
      expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, o.orderId)).toMatchObject({
        status: 'SUCCESS',
        actualAmountBase: 2_000_000n,
      });
    }
    expect(transfersOfChain(w.h.db, 'ETH').filter((t) => t.orderRef !== null)).toHaveLength(40);
    const successEvents = w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => e.notifyType === 'ORDER_SUCCESS');
    expect(successEvents).toHaveLength(40);
  });

  it('never sends a payout twice when killed after the broadcast reached the node but before its answer came back', async () => {
    const receiver = '0x3333333333333333333333333333333333333333' as Address;
    const c = w.devnet.get('ETH');
    const before = await tokenBalance(c.client, c.tokens.USDC.address, receiver);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const orderId = `kp-${i}`;
      ids.push(orderId);
      const res = await w.h.post('/v1/order/createPayout', m, {
        amount: '1.5',
        symbol: 'USDC',
        chain: 'ETH',
        orderId,
        receiveAddress: receiver,
      });
      expect(res.status).toBe(200);
    }
    // the first broadcast reaches anvil (and is mined), its answer is withheld: kill the worker there
    proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'hold', phase: 'response' } });
    const child = startWorkerProcess();
    await expect.poll(() => proxy.held, { timeout: 30_000 }).toBe(1);
    await kill(child);
    proxy.clear();
    expect(count('SELECT count(*) AS n FROM payout_attempts')).toBe(1); // signed and stored before it was sent
    expect((await tokenBalance(c.client, c.tokens.USDC.address, receiver)) - before).toBe(1_500_000n);
    const again = startWorkerProcess();
    await expect
      .poll(
        async () => {
          await c.client.mine({ blocks: 1 });
          return count(
            "SELECT count(*) AS n FROM orders WHERE type = 'PAYOUT' AND order_id LIKE 'kp-%' AND status = 'SUCCESS'",
          );
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(8);
    await kill(again);
    expect((await tokenBalance(c.client, c.tokens.USDC.address, receiver)) - before).toBe(8n * 1_500_000n);
    for (const id of ids) {
      const order = findOrderByMerchantOrderId(w.h.db, m.merchantId, id);
      const attempts = attemptsOfOrder(w.h.db, order?.id ?? '');
      expect(attempts.filter((a) => a.status === 'final')).toHaveLength(1);
    }
  });
});
