import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfersOfChain, unattributedTransfers } from '../../src/db/repositories/chain-scan.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { merchantScenario } from '../helpers/scenario.ts';

let w: EvmWorld;
let m: MerchantCreated;

beforeAll(async () => {
  w = await evmWorld(['ETH', 'BSC']);
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

const scenario = merchantScenario(() => ({ h: w.h, m }), 'c');
const { collect } = scenario;
const { status, eventsOf } = scenario;

describe('EVM collections on a real node (anvil, confirmations = 3)', () => {
  it('credits a full payment: PENDING_CONFIRMATION while confirming, then SUCCESS with the transaction', async () => {
    const { orderId, address } = await collect('ETH', 'USDC', '25.5');
    const txid = await w.pay('ETH', 'USDC', address, 25_500_000n);
    await w.scan('ETH');
    const seen = await status(orderId);
    expect(seen.status).toBe('PENDING_CONFIRMATION');
    expect(seen.actualAmount).toBeNull();
    expect(seen.transaction).toMatchObject({
      txid,
      amount: '25.50',
      confirmedNum: 1,
      status: 'PENDING',
      chain: 'ETH',
      symbol: 'USDC',
      to: address,
    });
    await w.mine('ETH', 2);
    await w.scan('ETH');
    const done = await status(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(done.actualAmount).toBe('25.50');
    expect(done.transaction).toMatchObject({ txid, confirmedNum: 3, status: 'SUCCESS' });
    expect(eventsOf(orderId)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
  });

  it('adds up a partial payment and the rest: PENDING, then PENDING_CONFIRMATION, then SUCCESS', async () => {
    const { orderId, address } = await collect('ETH', 'USDC', '10');
    await w.pay('ETH', 'USDC', address, 4_000_000n);
    await w.scan('ETH');
    expect((await status(orderId)).status).toBe('PENDING');
    await w.pay('ETH', 'USDC', address, 6_000_000n);
    await w.scan('ETH');
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    await w.mine('ETH', 3);
    await w.scan('ETH');
    const done = await status(orderId);
    expect(done).toMatchObject({ status: 'SUCCESS', actualAmount: '10.00' });
    expect(eventsOf(orderId)).toEqual(['ORDER_PENDING', 'ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
  });

  it('records an over-payment in actualAmount', async () => {
    const { orderId, address } = await collect('ETH', 'USDC', '10');
    await w.pay('ETH', 'USDC', address, 12_340_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '12.34' });
  });

  it('credits USDT on Ethereum, whose transfer returns nothing', async () => {
    const { orderId, address } = await collect('ETH', 'USDT', '7');
    await w.pay('ETH', 'USDT', address, 7_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    expect((await status(orderId)).status).toBe('SUCCESS');
  });

  it('credits BSC USDT with 18 decimals exactly', async () => {
    const { orderId, address } = await collect('BSC', 'USDT', '3.000000000000000007');
    await w.pay('BSC', 'USDT', address, 3_000_000_000_000_000_007n);
    await w.mine('BSC', 3);
    await w.scan('BSC');
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '3.000000000000000007' });
  });

  it('credits a native-coin payment (ETH) from the block, confirmed by its receipt', async () => {
    const { orderId, address } = await collect('ETH', 'ETH', '0.25');
    await w.pay('ETH', 'native', address, 250_000_000_000_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '0.25' });
  });

  it('keeps a wrong-token payment out of the order and lists it as unattributed', async () => {
    const { orderId, address } = await collect('ETH', 'USDC', '5');
    const txid = await w.pay('ETH', 'USDT', address, 5_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    expect((await status(orderId)).status).toBe('INIT');
    expect(unattributedTransfers(w.h.db, 'ETH')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'wrong-token' }),
    );
  });

  it('records a payment made after expiry as unattributed and expires the order', async () => {
    const { orderId, address } = await collect('ETH', 'USDC', '9');
    const c = w.devnet.get('ETH').client;
    const latest = await c.getBlock();
    await c.setNextBlockTimestamp({ timestamp: latest.timestamp + 31n * 60n });
    const txid = await w.pay('ETH', 'USDC', address, 9_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    w.h.clock.advance(31 * 60 * 1000);
    await expireOrders(w.h.rt);
    const s = await status(orderId);
    expect(s.status).toBe('EXPIRED');
    expect(s.reason).toBe('No payment was received before the order expired.');
    expect(unattributedTransfers(w.h.db, 'ETH')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'late' }),
    );
  });

  it('scanning the same blocks again credits nothing twice', async () => {
    const before = transfersOfChain(w.h.db, 'ETH').length;
    const events = w.h.db.select().from(webhookEvents).all().length;
    w.h.db.$client.prepare("UPDATE chain_cursors SET height = 0, height_hash = '' WHERE chain = 'ETH'").run();
    await w.scan('ETH');
    expect(transfersOfChain(w.h.db, 'ETH')).toHaveLength(before);
    expect(w.h.db.select().from(webhookEvents).all()).toHaveLength(events);
  });
});
