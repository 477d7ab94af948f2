import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfersOfChain, unattributedTransfers } from '../../src/db/repositories/chain-scan.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { merchantScenario } from '../helpers/scenario.ts';
import { CUSTOMER, type TronWorld, tronWorld } from '../helpers/tron-chain.ts';

let w: TronWorld;
let m: MerchantCreated;

beforeAll(async () => {
  w = await tronWorld();
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

const scenario = merchantScenario(() => ({ h: w.h, m }), 't');
const collect = (symbol: string, amount: string) => scenario.collect('TRON', symbol, amount);
const { status, eventsOf } = scenario;

describe('TRON collections on the fake node (finality = solidified block, 19 behind the head)', () => {
  it('credits a full USDT payment: PENDING_CONFIRMATION until solidified, then SUCCESS with the transaction', async () => {
    const { orderId, address } = await collect('USDT', '25.5');
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const txid = await w.pay('USDT', address, 25_500_000n);
    await w.scan();
    const seen = await status(orderId);
    expect(seen.status).toBe('PENDING_CONFIRMATION');
    expect(seen.actualAmount).toBeNull();
    expect(seen.transaction).toMatchObject({
      txid,
      amount: '25.50',
      confirmedNum: 1,
      status: 'PENDING',
      chain: 'TRON',
      symbol: 'USDT',
      from: CUSTOMER,
      to: address,
    });
    w.mine(18); // 19 confirmations: still above the solidified block
    await w.scan();
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    w.mine(1); // its block is now the solidified one
    await w.scan();
    const done = await status(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(done.actualAmount).toBe('25.50');
    expect(done.transaction).toMatchObject({ txid, confirmedNum: 20, status: 'SUCCESS' });
    expect(eventsOf(orderId)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
  });

  it('adds up a partial payment and the rest: PENDING, then PENDING_CONFIRMATION, then SUCCESS', async () => {
    const { orderId, address } = await collect('USDT', '10');
    await w.pay('USDT', address, 4_000_000n);
    await w.scan();
    expect((await status(orderId)).status).toBe('PENDING');
    await w.pay('USDT', address, 6_000_000n);
    await w.scan();
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    w.solidify();
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '10.00' });
    expect(eventsOf(orderId)).toEqual(['ORDER_PENDING', 'ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
  });

  it('records an over-payment in actualAmount', async () => {
    const { orderId, address } = await collect('USDT', '10');
    await w.pay('USDT', address, 12_340_000n);
    w.solidify();
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '12.34' });
  });

  it('adds up a payment split across two transactions in the same block', async () => {
    const { orderId, address } = await collect('USDT', '7');
    const first = await w.pay('USDT', address, 3_000_000n, { mine: false });
    const second = await w.pay('USDT', address, 4_000_000n, { mine: false });
    w.mine(1);
    w.solidify();
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '7.00' });
    const credited = transfersOfChain(w.h.db, 'TRON').filter((t) => t.to === address);
    expect(credited.map((t) => t.txid).sort()).toEqual([first, second].sort());
    expect(credited.every((t) => t.status === 'final' && t.eventKey === '0')).toBe(true);
  });

  it('credits a TRX payment from the block, in sun', async () => {
    const { orderId, address } = await collect('TRX', '12.345678');
    const txid = await w.pay('TRX', address, 12_345_678n);
    await w.scan();
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    w.solidify();
    await w.scan();
    const done = await status(orderId);
    expect(done).toMatchObject({ status: 'SUCCESS', actualAmount: '12.345678' });
    expect(done.transaction).toMatchObject({ txid, symbol: 'TRX', from: CUSTOMER, to: address });
    const row = transfersOfChain(w.h.db, 'TRON').find((t) => t.txid === txid);
    expect(row).toMatchObject({ eventKey: 'native', contract: null, amountBase: 12_345_678n });
  });

  it('keeps a TRX payment to a USDT order out of the order and lists it as unattributed', async () => {
    const { orderId, address } = await collect('USDT', '5');
    const txid = await w.pay('TRX', address, 5_000_000n);
    w.solidify();
    await w.scan();
    expect((await status(orderId)).status).toBe('INIT');
    expect(unattributedTransfers(w.h.db, 'TRON')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'wrong-token' }),
    );
  });

  it('rolls a payment back when a fork drops its block before solidification, then credits the payment made again', async () => {
    const { orderId, address } = await collect('USDT', '8');
    const txid = await w.pay('USDT', address, 8_000_000n);
    w.mine(2);
    await w.scan();
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    const dropped = w.node.fork(3); // the payment's block and the two after it
    expect(dropped.dropped).toContain(txid);
    w.mine(4); // a longer branch without the payment
    const rolled = await w.scan();
    expect(rolled.reorg).toBe(true);
    const back = await status(orderId);
    expect(back.status).toBe('INIT');
    expect(back.reason).toBe('The payment was removed by a chain reorganisation.');
    expect(transfersOfChain(w.h.db, 'TRON').find((t) => t.txid === txid)?.status).toBe('orphaned');

    // the customer pays again on the new branch
    await w.pay('USDT', address, 8_000_000n);
    await w.scan();
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    w.solidify();
    await w.scan();
    expect((await status(orderId)).status).toBe('SUCCESS');
    // the roll-back to INIT is a merchant event too (ORDER_REVERTED), then the second confirmation
    expect(eventsOf(orderId)).toEqual([
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_REVERTED',
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_SUCCESS',
    ]);
  });

  it('follows a transaction the node re-includes after a fork: same txid and log position, new block', async () => {
    const { orderId, address } = await collect('USDT', '6');
    const txid = await w.pay('USDT', address, 6_000_000n);
    await w.scan();
    const before = transfersOfChain(w.h.db, 'TRON').find((t) => t.txid === txid);
    expect(before).toMatchObject({ status: 'pending', eventKey: '0' });
    w.node.fork(1, { reinclude: true }); // back in the pool
    w.mine(2); // re-included in the first new block, one more on top
    await w.scan();
    const after = transfersOfChain(w.h.db, 'TRON').filter((t) => t.txid === txid);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ eventKey: '0', blockNum: before?.blockNum, status: 'pending' });
    expect(after[0]?.blockHash).not.toBe(before?.blockHash);
    expect((await status(orderId)).status).toBe('PENDING_CONFIRMATION');
    w.solidify();
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '6.00' });
  });

  it('scanning the same blocks again credits nothing twice', async () => {
    const before = transfersOfChain(w.h.db, 'TRON').length;
    const events = w.h.db.select().from(webhookEvents).all().length;
    const from = w.node.head() - 150;
    w.h.db.$client
      .prepare("UPDATE chain_cursors SET height = ?, height_hash = '' WHERE chain = 'TRON'")
      .run(from);
    await w.scan();
    expect(transfersOfChain(w.h.db, 'TRON')).toHaveLength(before);
    expect(w.h.db.select().from(webhookEvents).all()).toHaveLength(events);
  });

  it('records a payment made after expiry as unattributed and expires the order', async () => {
    const { orderId, address } = await collect('USDT', '9');
    w.mine(31 * 20); // 31 minutes of 3-second blocks
    const txid = await w.pay('USDT', address, 9_000_000n);
    w.solidify();
    await w.scan();
    w.h.clock.advance(31 * 60 * 1000);
    await expireOrders(w.h.rt);
    const s = await status(orderId);
    expect(s.status).toBe('EXPIRED');
    expect(s.reason).toBe('No payment was received before the order expired.');
    expect(unattributedTransfers(w.h.db, 'TRON')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'late' }),
    );
  });
});
