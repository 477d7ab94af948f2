import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCursor, transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { reorg } from '../../src/devnet/evm/reorg.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { sigkill, startWorkerProcess } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/*
 * Issue 19, scenario A: with 6 confirmations, the customer pays in block p and Kassa sees the
 * transfer at 3 of 6 confirmations. While Kassa is not looking (between two polls, or killed), a
 * reorganisation removes block p and mines the same transaction again in block p + 2; the chain
 * grows to p + 9, so every height Kassa wrote its checkpoint at now counts as final. Kassa must
 * still notice that its checkpoint left the chain, and credit the payment in its new block.
 */

const CONFIRMATIONS = 6;

let w: EvmWorld;
let m: MerchantCreated;
let n = 0;

beforeAll(async () => {
  w = await evmWorld(['ETH'], { confirmations: CONFIRMATIONS });
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

async function collect(amount: string) {
  const orderId = `away-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol: 'USDT', chain: 'ETH', orderId }),
  );
  return { orderId, address: r.data.address };
}

const orderOf = (orderId: string) => findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
const head = async () => Number(await w.devnet.get('ETH').client.getBlockNumber({ cacheTime: 0 }));
const eventsOf = (orderRef: string) =>
  w.h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => e.orderRef === orderRef)
    .map((e) => e.notifyType);

/** The reorganisation of the issue: the blocks from the payment's on are replaced, the payment lands two blocks later, the chain grows to p + 9. */
async function reorgAwayAndGrow(txid: `0x${string}`, paidIn: number) {
  const client = w.devnet.get('ETH').client;
  const depth = (await head()) - paidIn + 1; // p, p + 1, p + 2
  const { replaced } = await reorg(client, depth, { transactions: [{ hash: txid, blockOffset: 2 }] });
  await w.mine('ETH', 7);
  const receipt = await client.getTransactionReceipt({ hash: txid });
  expect(Number(receipt.blockNumber)).toBe(paidIn + 2);
  expect(receipt.blockHash).toBe(replaced[2]?.newHash);
  return { newBlock: paidIn + 2, newHash: receipt.blockHash };
}

describe('a reorganisation while Kassa is not looking (ETH, 6 confirmations)', () => {
  it('credits the payment in its new block when the reorg falls between two polls', async () => {
    const { orderId, address } = await collect('10');
    const txid = await w.pay('ETH', 'USDT', address, 10_000_000n);
    const paidIn = await head();
    await w.mine('ETH', 2);
    await w.scan('ETH');
    expect(orderOf(orderId)).toMatchObject({ status: 'PENDING_CONFIRMATION' });
    expect(orderOf(orderId)?.transaction?.confirmedNum).toBe(3);

    const { newBlock, newHash } = await reorgAwayAndGrow(txid, paidIn);
    const summary = await w.scan('ETH');
    expect(summary.reorg).toBe(true);

    const done = orderOf(orderId);
    expect(done).toMatchObject({ status: 'SUCCESS', actualAmountBase: 10_000_000n });
    expect(done?.transaction).toMatchObject({ txid, blockNum: newBlock });
    const rows = transfersOfChain(w.h.db, 'ETH').filter((t) => t.txid === txid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'final', blockNum: newBlock, blockHash: newHash });
    expect(eventsOf(done?.id ?? '')).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
  });
});

describe('a reorganisation while the worker is killed (ETH, 6 confirmations)', () => {
  let configFile: string;
  let worker: ChildProcess | null = null;

  beforeAll(() => {
    configFile = join(w.h.dir, 'kassa.json');
    writeFileSync(
      configFile,
      JSON.stringify(devnetChainConfig(w.devnet, { confirmations: CONFIRMATIONS, pollIntervalMs: 100 })),
    );
  });
  afterAll(async () => {
    if (worker) await sigkill(worker);
  });

  const start = () => {
    worker = startWorkerProcess(configFile, join(w.h.dir, 'kassa.db'));
    return worker;
  };

  it('credits the payment in its new block after a SIGKILL and a restart', async () => {
    const { orderId, address } = await collect('10');
    const child = start();
    const txid = await w.pay('ETH', 'USDT', address, 10_000_000n);
    const paidIn = await head();
    await w.mine('ETH', 2);
    const seen = paidIn + 2;
    await expect
      .poll(() => getCursor(w.h.db, 'ETH')?.height ?? 0, { timeout: 30_000, interval: 20 })
      .toBeGreaterThanOrEqual(seen);
    await sigkill(child);
    expect(child.signalCode).toBe('SIGKILL');
    expect(orderOf(orderId)).toMatchObject({ status: 'PENDING_CONFIRMATION' });

    const { newBlock, newHash } = await reorgAwayAndGrow(txid, paidIn);
    const again = start();
    await expect.poll(() => orderOf(orderId)?.status, { timeout: 30_000, interval: 50 }).toBe('SUCCESS');
    await sigkill(again);

    expect(orderOf(orderId)?.transaction).toMatchObject({ txid, blockNum: newBlock });
    const rows = transfersOfChain(w.h.db, 'ETH').filter((t) => t.txid === txid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'final', blockNum: newBlock, blockHash: newHash });
    expect(eventsOf(orderOf(orderId)?.id ?? '')).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
  });
});
