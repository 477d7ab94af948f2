import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCursor, transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../src/devnet/sui/index.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { spawnKassa } from '../helpers/cli.ts';
import { body, type Harness, makeHarness, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { SUI, suiChainConfig, suiHotWallet, USDC } from '../helpers/sui-chain.ts';

/**
 * The real `kassa worker` as a child process against a fake Sui node that lives in this process
 * (so it survives the kill), SIGKILLed in the middle of a catch-up scan and in the middle of a
 * payout; a new worker must finish the job with nothing missed, doubled or sent twice.
 */
let node: FakeSuiNode;
let client: SuiGrpcClient;
let h: Harness;
let m: MerchantCreated;
let configFile: string;
const children: ChildProcess[] = [];
const hot = suiHotWallet().address;
const ORDERS = 24;

beforeAll(async () => {
  node = await startFakeSuiNode({ checkpointIntervalMs: 100 });
  client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
  await node.fundSui(hot, 10n * SUI);
  await node.mint(node.usdcType, hot, 100n * USDC);
  h = await makeHarness(suiChainConfig(node), { clockStart: Date.now(), chains: true });
  m = await h.merchant('V3');
  await h.fund(m, 'SUI', 'USDC', '1000');
  configFile = join(h.dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(suiChainConfig(node, { pollIntervalMs: 100 })));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await h?.close();
  await node?.close();
});

/** Starts `kassa worker` on the harness database; resolves once it connected to the fake node. */
async function startWorker(): Promise<ChildProcess> {
  const child = spawnKassa(['worker', '--config', configFile], {
    KASSA_DB: join(h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'info',
  });
  children.push(child);
  child.stderr?.resume();
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker did not connect within 30 s')), 30_000);
    lines.on('line', (line) => {
      if (line.includes('"chain connected"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code} before connecting`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  expect(child.signalCode).toBe('SIGKILL');
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition') {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const order = (orderId: string) => {
  const o = findOrderByMerchantOrderId(h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
};
const eventsOf = (orderId: string) =>
  h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => JSON.parse(e.data).orderId === orderId)
    .map((e) => e.notifyType);
const balanceOf = async (owner: string, coinType: string) =>
  BigInt((await client.core.getBalance({ address: owner, coinType })).balance.balance);
const executed = async (digest: string) =>
  client.core.getTransaction({ digest }).then(
    () => true,
    () => false,
  );

describe('kassa worker killed with SIGKILL (SUI)', () => {
  it('mid-scan: the next worker credits every deposit exactly once', async () => {
    h.clock.set(Date.now());
    const orders: { orderId: string; address: string }[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const orderId = `k-${i}`;
      const r = await body<{ address: string }>(
        await h.post('/v1/order/createCollection', m, {
          amount: '1.5',
          symbol: 'USDC',
          chain: 'SUI',
          orderId,
        }),
      );
      expect(r.code).toBe(200);
      orders.push({ orderId, address: r.data.address });
    }
    // with no worker running: the deposits, spread over ~1,000 checkpoints (every fourth by address balance)
    for (let c = 0; c < 1_000; c++) {
      const i = c / 40;
      const o = Number.isInteger(i) ? orders[i] : undefined;
      if (o) await node.mint(node.usdcType, o.address, 1_500_000n, { asAddressBalance: i % 4 === 3 });
      node.checkpoint();
    }
    const head = Number(node.height());
    node.fail({ mode: 'slow', delayMs: 30, methods: ['GetCheckpoint'] }); // a slow node: the catch-up takes seconds

    const first = await startWorker();
    await until(() => (getCursor(h.db, 'SUI')?.height ?? 0) >= 300, 30_000, 'the scan passing 300');
    await kill(first);
    const cut = getCursor(h.db, 'SUI')?.height ?? 0;
    expect(cut).toBeLessThan(head); // killed mid-scan
    const creditedBefore = orders.filter((o) => order(o.orderId).status === 'SUCCESS').length;
    expect(creditedBefore).toBeGreaterThan(0);
    expect(creditedBefore).toBeLessThan(ORDERS);

    node.heal();
    const second = await startWorker();
    await until(() => orders.every((o) => order(o.orderId).status === 'SUCCESS'), 30_000, 'every order paid');
    await kill(second);

    const transfers = transfersOfChain(h.db, 'SUI').filter((t) => orders.some((o) => o.address === t.to));
    expect(transfers).toHaveLength(ORDERS);
    expect(new Set(transfers.map((t) => `${t.txid}|${t.eventKey}`)).size).toBe(ORDERS);
    for (const o of orders) {
      expect(order(o.orderId).actualAmountBase).toBe(1_500_000n);
      expect(eventsOf(o.orderId)).toEqual(['ORDER_SUCCESS']);
    }
  }, 120_000); // each `kassa worker` start compiles the app with tsx: seconds on a busy machine

  it('mid-payout: a payout signed but never sent, then executed while the worker was dead, lands once', async () => {
    const receiver = `0x${'a1'.repeat(32)}`;
    const later = `0x${'b2'.repeat(32)}`;
    const hotBefore = await balanceOf(hot, node.usdcType);
    const pay = async (orderId: string, amount: string, to: string) => {
      const res = await h.post('/v1/order/createPayout', m, {
        amount,
        symbol: 'USDC',
        chain: 'SUI',
        orderId,
        receiveAddress: to,
      });
      expect(res.status).toBe(200);
    };

    // life 1: executions fail; the worker stores the signed payout, cannot send it, and is killed
    await pay('out-1', '2', receiver);
    node.fail({ mode: 'unavailable', methods: ['ExecuteTransaction'] });
    let worker = await startWorker();
    await until(() => attemptsOfOrder(h.db, order('out-1').id).length === 1, 20_000, 'out-1 signed');
    await kill(worker);
    const [attempt] = attemptsOfOrder(h.db, order('out-1').id);
    expect(attempt?.status).toBe('signed');
    expect(await executed(attempt!.txHash)).toBe(false);

    // life 2: the node takes 1.5 s to execute the re-sent bytes; the worker dies while it waits
    node.heal();
    node.fail({ mode: 'slow', count: 1, delayMs: 1_500, methods: ['ExecuteTransaction'] });
    worker = await startWorker();
    await until(() => node.state().failures.length === 0, 20_000, 'the re-send reaching the node');
    await kill(worker);
    await until(() => executed(attempt!.txHash), 5_000, 'the execution finishing on the node');
    expect(attemptsOfOrder(h.db, order('out-1').id).map((a) => a.status)).toEqual(['signed']);

    // life 3: the answer was lost; the same bytes go out again and the payout settles once
    await pay('out-2', '3', later);
    worker = await startWorker();
    await until(
      () => order('out-1').status === 'SUCCESS' && order('out-2').status === 'SUCCESS',
      30_000,
      'both payouts settled',
    );
    await kill(worker);

    expect(attemptsOfOrder(h.db, order('out-1').id).map((a) => [a.txHash, a.status])).toEqual([
      [attempt!.txHash, 'final'],
    ]);
    expect(attemptsOfOrder(h.db, order('out-2').id)).toHaveLength(1);
    expect(await balanceOf(receiver, node.usdcType)).toBe(2n * USDC);
    expect(await balanceOf(later, node.usdcType)).toBe(3n * USDC);
    expect(hotBefore - (await balanceOf(hot, node.usdcType))).toBe(5n * USDC);
    expect(eventsOf('out-1')).toEqual(['ORDER_PENDING', 'ORDER_SUCCESS']);
  }, 120_000);
});
