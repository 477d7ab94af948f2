import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { spawnKassa } from '../helpers/cli.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { type TronWorld, tronChainConfig, tronWorld, USDT } from '../helpers/tron-chain.ts';
import { type Gate, startGate } from './gate.ts';

/*
 * The real `kassa worker --config <json>` as a child process, SIGKILLed at an exact point: the
 * fake node runs in this process (it survives the kill) behind a gate that freezes the worker on
 * a chosen request.
 */

let w: TronWorld;
let m: MerchantCreated;
let gate: Gate;
let configFile: string;
let worker: ChildProcess | null = null;
const ORDERS = 16;
const PAYOUTS = 6;

beforeAll(async () => {
  w = await tronWorld();
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'TRON', 'USDT', '1000');
  gate = await startGate(w.node.url);
  configFile = join(w.h.dir, 'kassa.json');
  const config = tronChainConfig([gate.url], { pollIntervalMs: 100 }) as {
    chains: { TRON: Record<string, unknown> };
  };
  config.chains.TRON.maxLogRange = 4; // scan steps of 4 blocks: the kill lands between steps
  writeFileSync(configFile, JSON.stringify(config));
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await gate?.stop();
  await w?.close();
});

function startWorkerProcess(): ChildProcess {
  worker = spawnKassa(['worker', '--config', configFile], {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
  });
  // drain its logs so a full pipe never stalls it
  worker.stdout?.resume();
  worker.stderr?.resume();
  return worker;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
}

const count = (sql: string) => (w.h.db.$client.prepare(sql).get() as { n: number }).n;
const credited = () =>
  count("SELECT count(*) AS n FROM orders WHERE type = 'COLLECTION' AND status = 'SUCCESS'");

describe('a TRON worker killed with SIGKILL and restarted', () => {
  it('misses no deposit and counts none twice when killed in the middle of a scan', async () => {
    const orders: { orderId: string; address: string }[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const orderId = `k-${i}`;
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: '2',
          symbol: 'USDT',
          chain: 'TRON',
          orderId,
        }),
      );
      orders.push({ orderId, address: r.data.address });
    }
    for (const o of orders) await w.pay('USDT', o.address, 2_000_000n); // one block each
    w.solidify();
    // the worker reads the TransactionInfo of half the payments' blocks, then freezes on the next one
    gate.close('/wallet/gettransactioninfobyblocknum', { after: ORDERS / 2 });
    const child = startWorkerProcess();
    await expect.poll(() => gate.held, { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
    await kill(child);
    const creditedAtKill = credited();
    expect(creditedAtKill).toBeGreaterThan(0);
    expect(creditedAtKill).toBeLessThanOrEqual(ORDERS / 2);

    gate.open();
    const again = startWorkerProcess();
    await expect.poll(credited, { timeout: 30_000, interval: 50 }).toBe(ORDERS);
    await kill(again);
    for (const o of orders) {
      expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, o.orderId)).toMatchObject({
        status: 'SUCCESS',
        actualAmountBase: 2_000_000n,
      });
    }
    expect(transfersOfChain(w.h.db, 'TRON').filter((t) => t.orderRef !== null)).toHaveLength(ORDERS);
    const successEvents = w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => e.notifyType === 'ORDER_SUCCESS');
    expect(successEvents).toHaveLength(ORDERS);
  });

  it('never sends a payout twice when killed after the broadcast reached the node but before its answer came back', async () => {
    const receiver = TronWeb.address.fromPrivateKey('99'.repeat(32)) as string;
    const ids: string[] = [];
    for (let i = 0; i < PAYOUTS; i++) {
      const orderId = `kp-${i}`;
      ids.push(orderId);
      const res = await w.h.post('/v1/order/createPayout', m, {
        amount: '1.5',
        symbol: 'USDT',
        chain: 'TRON',
        orderId,
        receiveAddress: receiver,
      });
      expect(res.status).toBe(200);
    }
    // the first broadcast enters the node's pool; its answer never reaches the worker
    gate.close('/wallet/broadcasttransaction', { hold: 'response' });
    const child = startWorkerProcess();
    await expect.poll(() => gate.held, { timeout: 30_000, interval: 20 }).toBe(1);
    expect(w.node.state().pending).toBe(1);
    await kill(child);
    expect(count("SELECT count(*) AS n FROM payout_attempts WHERE status = 'signed'")).toBe(1);

    gate.open();
    const again = startWorkerProcess();
    const paid = () =>
      count(
        "SELECT count(*) AS n FROM orders WHERE type = 'PAYOUT' AND order_id LIKE 'kp-%' AND status = 'SUCCESS'",
      );
    await expect
      .poll(
        () => {
          w.mine(3);
          return paid();
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(PAYOUTS);
    await kill(again);
    expect(w.node.trc20Balance(USDT, receiver)).toBe(BigInt(PAYOUTS) * 1_500_000n);
    for (const id of ids) {
      const order = findOrderByMerchantOrderId(w.h.db, m.merchantId, id);
      const attempts = attemptsOfOrder(w.h.db, order?.id ?? '');
      expect(attempts).toHaveLength(1);
      expect(attempts[0]?.status).toBe('final');
    }
  });
});
