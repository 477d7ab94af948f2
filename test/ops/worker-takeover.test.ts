import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { sigkill } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body } from '../helpers/harness.ts';
import { type Receiver, startReceiver, verifyWebhook } from '../helpers/webhook-receiver.ts';
import { HOLDING, type LoggedWorker, startLoggedWorker } from '../helpers/worker-process.ts';

/**
 * Two real `kassa worker` processes on one database (SQLite, or PostgreSQL in the postgres project), ETH on anvil, a webhook receiver on a real
 * socket (issue 16). Each worker reaches anvil through its own proxy, so the requests each one
 * makes show which of them scans. The holder is SIGKILLed while nothing is in flight; the standby
 * must take over within 10 s, credit a payment made after the kill once, and deliver every webhook
 * event exactly once.
 */
let w: EvmWorld;
let m: MerchantCreated;
let rx: Receiver;
const proxies: FaultProxy[] = [];
const workers: LoggedWorker[] = [];
let dbFile: string;

beforeAll(async () => {
  w = await evmWorld(['ETH'], { confirmations: 1 });
  rx = await startReceiver();
  m = await w.h.merchant('V3', rx.url);
  dbFile = join(w.h.dir, 'kassa.db');
});
afterAll(async () => {
  for (const x of workers) await sigkill(x.child);
  for (const p of proxies) await p.close();
  await rx?.close();
  await w?.close();
});

/** A worker reaching anvil through its own proxy, with its own config file. */
async function worker(name: string): Promise<{ proc: LoggedWorker; proxy: FaultProxy }> {
  const proxy = await startFaultProxy(w.devnet.get('ETH').url);
  proxies.push(proxy);
  const config = deepMerge(
    devnetChainConfig(w.devnet, { confirmations: 1, pollIntervalMs: 100, rpc: () => [proxy.url] }),
    { webhooks: { pollIntervalMs: 50, timeoutMs: 2000, allowPrivateTargets: true } },
  );
  const file = join(w.h.dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  const proc = startLoggedWorker(file, dbFile);
  workers.push(proc);
  return { proc, proxy };
}

async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs: number,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A collection of 2 USDT, paid in full; resolves once the payment is in a block. */
async function paidOrder(orderId: string): Promise<void> {
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount: '2', symbol: 'USDT', chain: 'ETH', orderId }),
  );
  expect(r.code).toBe(200);
  await w.pay('ETH', 'USDT', r.data.address, 2_000_000n);
}

/** Mines a block per check until the order is SUCCESS. */
async function untilSuccess(orderId: string, timeoutMs: number): Promise<void> {
  await until(
    async () => {
      await w.mine('ETH', 1);
      return (await store().findOrderByMerchantOrderId(m.merchantId, orderId))?.status === 'SUCCESS';
    },
    `${orderId} SUCCESS`,
    timeoutMs,
  );
}

/** The database as Kassa sees it (the Store), so the test runs on SQLite and on PostgreSQL. */
const store = () => w.h.rt.db;
const events = () => store().listWebhookEvents({ limit: 1000 });
const allDelivered = async () => {
  const all = await events();
  return all.length > 0 && all.every((e) => e.status === 'delivered');
};

describe('two workers on one database', () => {
  it('runs one; when it is SIGKILLed the other takes over within 10 s, crediting once and sending each webhook once', async () => {
    const a = await worker('a');
    const holderA = await a.proc.holder();
    await a.proc.line((l) => l.msg === HOLDING, 30_000, 'lease held');
    const b = await worker('b');
    const holderB = await b.proc.holder();
    await b.proc.line(
      (l) => l.msg === `waiting for the worker lease held by ${holderA}`,
      30_000,
      'the standby waiting for the holder',
    );

    await paidOrder('before-kill');
    await untilSuccess('before-kill', 30_000);
    await until(allDelivered, 'the first order’s webhooks delivered', 30_000);
    // only the holder scans: the standby has not sent a single request to its node
    expect(a.proxy.calls.some((c) => c.method === 'eth_getLogs')).toBe(true);
    expect(b.proxy.hits).toBe(0);

    // nothing in flight now (every event delivered, no payment pending): kill the holder
    const killedAt = Date.now();
    await sigkill(a.proc.child);
    await paidOrder('after-kill');

    const took = await b.proc.line((l) => l.msg === HOLDING, 10_000 - (Date.now() - killedAt), 'take-over');
    expect(took.tookOverFrom).toBe(holderA);
    expect(took.holder).toBe(holderB);
    expect(took.seenAt - killedAt).toBeLessThan(10_000);
    await until(() => b.proxy.hits > 0, 'the new holder scans', 10_000 - (Date.now() - killedAt));

    await untilSuccess('after-kill', 30_000);
    const order = await store().findOrderByMerchantOrderId(m.merchantId, 'after-kill');
    expect(order).toMatchObject({ status: 'SUCCESS', actualAmountBase: 2_000_000n });
    // credited once: one transfer, one ledger credit, one ORDER_SUCCESS
    expect((await store().transfersOfChain('ETH')).filter((t) => t.orderRef === order?.id)).toHaveLength(1);
    expect((await store().ledgerEntriesOfOrder(order?.id ?? '')).map((e) => e.kind)).toEqual([
      'collection_credit',
    ]);
    const stored = await events();
    const ofOrder = (id: string) => stored.filter((e) => e.orderRef === id);
    expect(ofOrder(order?.id ?? '').filter((e) => e.notifyType === 'ORDER_SUCCESS')).toHaveLength(1);

    // every event reached the receiver exactly once
    await until(allDelivered, 'every webhook delivered', 30_000);
    const received = new Map<string, number>();
    for (const r of rx.received) {
      const { eventId } = verifyWebhook(m.webhookSecret, r);
      received.set(eventId, (received.get(eventId) ?? 0) + 1);
    }
    const delivered = await events();
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(delivered.map((e) => [e.id, 1])));
    expect(delivered.filter((e) => e.notifyType === 'ORDER_SUCCESS')).toHaveLength(2);
  }, 180_000);
});
