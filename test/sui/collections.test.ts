import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getCursor,
  pendingTransfers,
  transfersOfChain,
  unattributedTransfers,
  unfinalBlocks,
} from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { coinRefs, newTransaction, ownedInput } from '../../src/devnet/sui/testing.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { body } from '../helpers/harness.ts';
import { merchantScenario } from '../helpers/scenario.ts';
import { SUI, type SuiWorld, suiWorld, USDC } from '../helpers/sui-chain.ts';

let w: SuiWorld;
let m: MerchantCreated;

beforeAll(async () => {
  w = await suiWorld();
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

const scenario = merchantScenario(() => ({ h: w.h, m }), 's');
const collect = async (symbol: string, amount: string) => {
  const created = await scenario.collect('SUI', symbol, amount);
  expect(created.address).toMatch(/^0x[0-9a-f]{64}$/);
  return created;
};
const { status, eventsOf } = scenario;

describe('SUI collections on the fake Sui node (final once checkpointed)', () => {
  it('credits a full USDC payment at once: the checkpoint that holds it is final', async () => {
    const { orderId, address } = await collect('USDC', '25.5');
    const txid = await w.pay('USDC', address, 25_500_000n);
    await w.scan();
    const done = await status(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(done.actualAmount).toBe('25.50');
    expect(done.transaction).toMatchObject({
      txid,
      amount: '25.50',
      status: 'SUCCESS',
      chain: 'SUI',
      symbol: 'USDC',
      to: address,
      from: w.customer,
      confirmedNum: 1,
    });
    expect(eventsOf(orderId)).toEqual(['ORDER_SUCCESS']);
  });

  it('adds up a partial payment and the rest: PENDING, then SUCCESS', async () => {
    const { orderId, address } = await collect('USDC', '10');
    await w.pay('USDC', address, 4n * USDC);
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'PENDING', actualAmount: null });
    await w.pay('USDC', address, 6n * USDC);
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '10.00' });
    expect(eventsOf(orderId)).toEqual(['ORDER_PENDING', 'ORDER_SUCCESS']);
  });

  it('records an over-payment in actualAmount', async () => {
    const { orderId, address } = await collect('USDC', '10');
    await w.pay('USDC', address, 12_340_000n);
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '12.34' });
  });

  it('adds up a payment split across two transactions in one checkpoint', async () => {
    const { orderId, address } = await collect('USDC', '8');
    const first = await w.pay('USDC', address, 3n * USDC, { seal: false });
    const second = await w.pay('USDC', address, 5n * USDC);
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '8.00' });
    const mine = transfersOfChain(w.h.db, 'SUI').filter((t) => t.to === address);
    expect(mine.map((t) => t.txid).sort()).toEqual([first, second].sort());
    expect(new Set(mine.map((t) => t.blockNum)).size).toBe(1);
  });

  it('credits a native SUI payment (9 decimals) and ignores the customer’s gas', async () => {
    const { orderId, address } = await collect('SUI', '1.5');
    await w.pay('SUI', address, 1_500_000_000n);
    await w.scan();
    expect(await status(orderId)).toMatchObject({ status: 'SUCCESS', actualAmount: '1.50' });
    const [t] = transfersOfChain(w.h.db, 'SUI').filter((x) => x.to === address);
    expect(t).toMatchObject({ contract: null, amountBase: 1_500_000_000n, from: w.customer });
  });

  it('credits a deposit into the address balance (SIP-58), which no coin listing shows', async () => {
    const { orderId, address } = await collect('USDC', '7');
    const txid = await w.pay('USDC', address, 7n * USDC, { asAddressBalance: true });
    expect((await w.client.core.getCoins({ address, coinType: w.node.usdcType })).objects).toEqual([]);
    await w.scan();
    const done = await status(orderId);
    expect(done).toMatchObject({ status: 'SUCCESS', actualAmount: '7.00' });
    expect(done.transaction).toMatchObject({ txid });
  });

  it('credits nothing from a payment that failed on chain (only the payer’s gas moved)', async () => {
    const { orderId, address } = await collect('USDC', '2');
    const { tx } = await newTransaction(w.client, w.customer, 1_500_000n); // too small: Insufficient Gas
    const [usdc] = await coinRefs(w.client, w.customer, w.node.usdcType);
    tx.transferObjects([tx.splitCoins(ownedInput(tx, usdc!), [tx.pure.u64(2n * USDC)])[0]!], address);
    const bytes = await tx.build();
    const { signature } = await w.customerKey.signTransaction(bytes);
    const { transaction } = await w.client.core.executeTransaction({
      transaction: bytes,
      signatures: [signature],
    });
    expect(transaction.effects?.status.success).toBe(false);
    w.seal();
    const before = transfersOfChain(w.h.db, 'SUI').length;
    await w.scan();
    expect(transfersOfChain(w.h.db, 'SUI')).toHaveLength(before);
    expect((await status(orderId)).status).toBe('INIT');
  });

  it('keeps a wrong-token payment out of the order and lists it as unattributed', async () => {
    const { orderId, address } = await collect('USDC', '5');
    const txid = await w.pay('SUI', address, 5n * SUI);
    await w.scan();
    expect((await status(orderId)).status).toBe('INIT');
    expect(unattributedTransfers(w.h.db, 'SUI')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'wrong-token' }),
    );
  });

  it('records a payment made after expiry as unattributed and expires the order', async () => {
    const now = w.h.clock.now();
    w.h.clock.set(now - 31 * 60 * 1000);
    const { orderId, address } = await collect('USDC', '9');
    w.h.clock.set(now);
    const txid = await w.pay('USDC', address, 9n * USDC);
    await w.scan();
    await expireOrders(w.h.rt);
    const s = await status(orderId);
    expect(s.status).toBe('EXPIRED');
    expect(s.reason).toBe('No payment was received before the order expired.');
    expect(unattributedTransfers(w.h.db, 'SUI')).toContainEqual(
      expect.objectContaining({ txid, unattributedReason: 'late' }),
    );
  });

  it('scanning the same checkpoints again credits nothing twice', async () => {
    const before = transfersOfChain(w.h.db, 'SUI').length;
    const events = w.h.db.select().from(webhookEvents).all().length;
    w.h.db.$client.prepare("UPDATE chain_cursors SET height = 0, height_hash = '' WHERE chain = 'SUI'").run();
    const again = await w.scan();
    expect(again.transfers).toBeGreaterThanOrEqual(before);
    expect(transfersOfChain(w.h.db, 'SUI')).toHaveLength(before);
    expect(w.h.db.select().from(webhookEvents).all()).toHaveLength(events);
  });
});

describe('SUI checkpoints need no proof of staying on the chain', () => {
  let s: SuiWorld;
  let merchant: MerchantCreated;
  beforeAll(async () => {
    s = await suiWorld();
    merchant = await s.h.merchant('V3');
  });
  afterAll(() => s?.close());

  it('are final once executed: nothing is scanned before it is final, so no unfinal checkpoint is kept to compare', async () => {
    const r = await body<{ address: string }>(
      await s.h.post('/v1/order/createCollection', merchant, {
        amount: '3',
        symbol: 'USDC',
        chain: 'SUI',
        orderId: 'final-1',
      }),
    );
    await s.scan();
    await s.pay('USDC', r.data.address, 3n * USDC);
    s.seal();
    const heads = await s.adapter.heads();
    expect(heads.final).toBe(heads.head);
    await s.scan();

    // the payment was final when first seen: SUCCESS at once, nothing pending that a reorg could take
    const order = findOrderByMerchantOrderId(s.h.db, merchant.merchantId, 'final-1');
    expect(order?.status).toBe('SUCCESS');
    expect(pendingTransfers(s.h.db, 'SUI')).toEqual([]);
    const events = s.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => e.orderRef === order?.id)
      .map((e) => e.notifyType);
    expect(events).toEqual(['ORDER_SUCCESS']);
    // the checkpoint is final when written: the only hash kept is its own, checked at the next pass
    const cursor = getCursor(s.h.db, 'SUI');
    expect(cursor?.finalHeight).toBe(cursor?.height);
    expect(unfinalBlocks(s.h.db, 'SUI')).toEqual([{ height: cursor?.height, hash: cursor?.heightHash }]);
    expect((await s.scan()).reorg).toBe(false);
  });
});
