import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCursor, unattributedTransfers } from '../../src/db/repositories/chain-scan.ts';
import { applyOrderTransitions, findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { type EvmDevnet, startEvmDevnet } from '../../src/devnet/evm/devnet.ts';
import { transferToken } from '../../src/devnet/evm/tokens.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker, type Worker } from '../../workers/main.ts';
import { customer, devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body, type Harness, makeHarness } from '../helpers/harness.ts';

/*
 * Issue 19, scenario B: a fresh database, orders that live 60 s, and the ETH RPC refusing
 * connections from the very first start, so the chain has never been scanned. An order is paid
 * during the outage. It must not expire while nobody has looked at the chain, and when the RPC
 * comes back the first scan must start early enough to find the payment.
 */

let devnet: EvmDevnet;
let proxy: FaultProxy;
let h: Harness;
let m: MerchantCreated;
let worker: Worker | null = null;

beforeAll(async () => {
  devnet = await startEvmDevnet({ chains: ['ETH'], fund: { accounts: [customer.address] } });
  proxy = await startFaultProxy(devnet.get('ETH').url, { down: true });
  h = await makeHarness(
    {
      ...devnetChainConfig(devnet, { rpc: () => [proxy.url] }),
      orders: { collectionTtlSeconds: 60 },
    },
    { clockStart: Date.now(), chains: true },
  );
  m = await h.merchant('V3');
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await proxy?.close();
  await devnet?.stop();
});

const orderOf = (orderId: string) => findOrderByMerchantOrderId(h.db, m.merchantId, orderId);
const typesOf = (orderId: string) => {
  const id = orderOf(orderId)?.id;
  return h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => e.orderRef === id)
    .map((e) => e.notifyType);
};

it('keeps a paid order through an outage from the first start, and credits it when the RPC returns', async () => {
  const health = h.rt.health;
  worker = await startWorker(h.rt, [chainJobs]);
  await expect.poll(() => health.get('ETH').lastError ?? '', { timeout: 20_000 }).not.toBe('');

  const create = async (orderId: string) =>
    body<{ address: string }>(
      await h.post('/v1/order/createCollection', m, { amount: '10', symbol: 'USDT', chain: 'ETH', orderId }),
    );
  const paid = await create('B-paid');
  await create('B-unpaid');
  const c = devnet.get('ETH');
  const receipt = await transferToken(c.client, {
    from: customer,
    token: c.tokens.USDT.address,
    to: paid.data.address as Address,
    amount: 10_000_000n,
  });
  await c.client.mine({ blocks: 40 });

  // Past both orders' time to live, the RPC still refusing: nobody has read the chain, so nothing expires.
  h.clock.advance(61_000);
  expect(await expireOrders(h.rt)).toEqual({ expired: 0 });
  expect(getCursor(h.db, 'ETH')).toBeNull();
  expect(orderOf('B-paid')?.status).toBe('INIT');
  expect(orderOf('B-unpaid')?.status).toBe('INIT');

  await proxy.up();
  await expect.poll(() => orderOf('B-paid')?.status, { timeout: 30_000, interval: 50 }).toBe('SUCCESS');
  expect(orderOf('B-paid')).toMatchObject({
    actualAmountBase: 10_000_000n,
    transaction: { txid: receipt.transactionHash, blockNum: Number(receipt.blockNumber) },
  });
  // The first checkpoint started before the orders were created, not at the head.
  expect(orderOf('B-unpaid')?.status).toBe('INIT');

  // Once the chain's time passes the unpaid order's expiry and the scanner has read that far, it expires.
  const latest = await c.client.getBlock();
  await c.client.setNextBlockTimestamp({ timestamp: latest.timestamp + 120n });
  await c.client.mine({ blocks: 1 });
  await expect.poll(() => orderOf('B-unpaid')?.status, { timeout: 30_000, interval: 50 }).toBe('EXPIRED');
  expect(orderOf('B-unpaid')?.reason).toBe('No payment was received before the order expired.');

  expect(typesOf('B-paid')).toEqual(['ORDER_SUCCESS']); // found already final: no progress report first
  expect(typesOf('B-unpaid')).toEqual(['ORDER_EXPIRED']);
  expect(unattributedTransfers(h.db, 'ETH')).toEqual([]);
});

describe('a database where orders expired before the chain was ever scanned (expired by an older Kassa)', () => {
  let w: EvmWorld;
  beforeAll(async () => {
    w = await evmWorld(['ETH']);
  });
  afterAll(() => w?.close());

  it('starts the first scan before those orders, so their payments are found and listed', async () => {
    const merchant = await w.h.merchant('V3');
    const r = await body<{ address: string }>(
      await w.h.post('/v1/order/createCollection', merchant, {
        amount: '3',
        symbol: 'USDC',
        chain: 'ETH',
        orderId: 'legacy-1',
      }),
    );
    const txid = await w.pay('ETH', 'USDC', r.data.address, 3_000_000n);
    await w.mine('ETH', 30);
    // what Kassa before issue 19 did while the RPC was down: expire with no checkpoint at all
    const order = findOrderByMerchantOrderId(w.h.db, merchant.merchantId, 'legacy-1');
    if (!order) throw new Error('no order');
    applyOrderTransitions(
      w.h.db,
      [{ order, patch: { status: 'EXPIRED', reason: 'No payment was received before the order expired.' } }],
      w.h.clock.now(),
    );
    expect(getCursor(w.h.db, 'ETH')).toBeNull();

    await w.scan('ETH');
    expect(unattributedTransfers(w.h.db, 'ETH')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'order-final', amountBase: 3_000_000n }),
    );
  });
});
