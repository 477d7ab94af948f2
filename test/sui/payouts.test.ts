import { bcs } from '@mysten/sui/bcs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSuiAdapter, type SuiAdapter } from '../../src/chains/sui/adapter.ts';
import { decodeRaw } from '../../src/chains/sui/payout-tx.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { coinRefs, newTransaction } from '../../src/devnet/sui/testing.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { listOperatorPayouts, retryOperatorPayout } from '../../src/services/manage-payouts.ts';
import { body } from '../helpers/harness.ts';
import { spendOf } from '../helpers/spends.ts';
import { SUI, type SuiWorld, suiAdapterFor, suiWorld, USDC } from '../helpers/sui-chain.ts';

let w: SuiWorld;
let m: MerchantCreated;
let n = 0;
const receiver = `0x${'11'.repeat(32)}`;

beforeAll(async () => {
  w = await suiWorld();
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'SUI', 'USDC', '100000000');
  await w.h.fund(m, 'SUI', 'SUI', '100000000');
});
afterAll(() => w?.close());

async function payout(symbol: string, amount: string, to: string = receiver) {
  const orderId = `p-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount,
    symbol,
    chain: 'SUI',
    orderId,
    receiveAddress: to,
  });
  return { orderId, res, r: await body<{ address: string }>(res) };
}

function order(orderId: string) {
  const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
}

/** Payout passes with a checkpoint sealed after each, until the order is final or `max` passes ran. */
async function settle(orderId: string, adapter?: SuiAdapter, max = 4) {
  for (let i = 0; i < max; i++) {
    await w.payouts(adapter);
    w.seal();
    const s = order(orderId).status;
    if (s === 'SUCCESS' || s === 'FAILED') break;
  }
  await w.payouts(adapter);
  return order(orderId);
}

/** Spends the hot wallet's SUI coin with a transaction of the hot key: every input version moves on. */
async function moveHotGasCoin() {
  const { tx } = await newTransaction(w.client, w.hot);
  tx.transferObjects([tx.splitCoins(tx.gas, [tx.pure.u64(1n)])[0]!], w.hot);
  const bytes = await tx.build();
  const { signature } = await w.hotKey.signTransaction(bytes);
  await w.client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
  w.seal();
}

describe('SUI payouts on the fake Sui node', () => {
  it('pays USDC from several coins (merged, then split) with SUI gas, through PENDING to SUCCESS', async () => {
    const before = await w.balanceOf(receiver, w.node.usdcType);
    const suiBefore = await w.balanceOf(w.hot, w.node.suiType);
    const { orderId, r } = await payout('USDC', '450.25');
    expect(r.code).toBe(200);
    expect(r.data.address).toBe(w.hot);
    await w.payouts(); // signs, stores, executes
    expect(order(orderId).status).toBe('PENDING');
    w.seal();
    const done = await settle(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(done.actualAmountBase).toBe(450_250_000n);
    expect(done.transaction).toMatchObject({ status: 'SUCCESS', from: w.hot, to: receiver });
    expect((await w.balanceOf(receiver, w.node.usdcType)) - before).toBe(450_250_000n);
    expect(await w.balanceOf(w.hot, w.node.usdcType)).toBe(1_000n * USDC - 450_250_000n);
    const [attempt] = attemptsOfOrder(w.h.db, done.id);
    const sent = bcs.TransactionData.parse(decodeRaw(attempt!.rawTx).bytes).V1!;
    const commands = sent.kind.ProgrammableTransaction!.commands.map((c) => c.$kind);
    expect(commands).toEqual(['MergeCoins', 'SplitCoins', 'TransferObjects']);
    const gasIds = new Set(sent.gasData.payment.map((p) => p.objectId));
    expect(gasIds.size).toBeGreaterThan(0);
    const usdcIds = (await coinRefs(w.client, w.hot, w.node.usdcType)).map((c) => c.objectId);
    expect(usdcIds.some((id) => gasIds.has(id))).toBe(false);
    const gas = await w.balanceOf(w.hot, w.node.suiType);
    expect(suiBefore - gas).toBeGreaterThan(0n);
    expect(suiBefore - gas).toBeLessThanOrEqual(BigInt(sent.gasData.budget!));
    const events = w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => JSON.parse(e.data).orderId === orderId);
    expect(events.map((e) => e.notifyType)).toEqual(['ORDER_PENDING', 'ORDER_SUCCESS']);
  });

  it('pays native SUI split from the gas coin; the receiver gets the amount exactly', async () => {
    const before = await w.balanceOf(receiver, w.node.suiType);
    const { orderId } = await payout('SUI', '0.75');
    const done = await settle(orderId);
    expect(done.status).toBe('SUCCESS');
    expect((await w.balanceOf(receiver, w.node.suiType)) - before).toBe(750_000_000n);
  });

  it('never sends the same payout twice, however often the job runs', async () => {
    const before = await w.balanceOf(receiver, w.node.usdcType);
    const { orderId } = await payout('USDC', '1');
    for (let i = 0; i < 4; i++) await w.payouts();
    w.seal();
    for (let i = 0; i < 3; i++) await w.payouts();
    expect(order(orderId).status).toBe('SUCCESS');
    expect(attemptsOfOrder(w.h.db, order(orderId).id)).toHaveLength(1);
    expect((await w.balanceOf(receiver, w.node.usdcType)) - before).toBe(USDC);
  });

  it('executes once when the answer to ExecuteTransaction is lost after execution (phase after)', async () => {
    const before = await w.balanceOf(receiver, w.node.usdcType);
    const { orderId } = await payout('USDC', '2');
    w.node.fail({ mode: 'unavailable', count: 1, methods: ['ExecuteTransaction'], phase: 'after' });
    const done = await settle(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(attemptsOfOrder(w.h.db, done.id)).toHaveLength(1);
    expect((await w.balanceOf(receiver, w.node.usdcType)) - before).toBe(2n * USDC);
    expect(w.node.state().failures).toEqual([]);
  });

  it('keeps an executed transaction whose every answer was lost: re-sends the same bytes, never a new one', async () => {
    const before = await w.balanceOf(receiver, w.node.usdcType);
    const { orderId } = await payout('USDC', '3');
    w.node.fail({ mode: 'unavailable', count: 50, methods: ['ExecuteTransaction'], phase: 'after' });
    const fast = suiAdapterFor(w, (s, l) => createSuiAdapter(s, l, { baseDelayMs: 1 }));
    await expect(w.payouts(fast)).rejects.toThrow(/UNAVAILABLE/);
    w.node.heal();
    const [attempt] = attemptsOfOrder(w.h.db, order(orderId).id);
    expect(attempt?.status).toBe('signed');
    // it did execute, so its gas coin moved on, yet it must not be called unable to land
    expect((await w.adapter.lookup(attempt!.txHash)).state).not.toBe('unknown');
    expect(await fast.judgeSlot({ from: w.hot, attempts: [spendOf(attempt!)], recorded: [] })).toEqual({
      state: 'landed',
      txHash: attempt!.txHash,
    });
    const done = await settle(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(attemptsOfOrder(w.h.db, done.id)).toHaveLength(1);
    expect((await w.balanceOf(receiver, w.node.usdcType)) - before).toBe(3n * USDC);
  });

  it('holds a payout whose gas coin a transaction Kassa did not record consumed; signs it anew only when the operator retries', async () => {
    const before = await w.balanceOf(receiver, w.node.usdcType);
    const { orderId } = await payout('USDC', '4');
    w.node.fail({ mode: 'unavailable', count: 50, methods: ['ExecuteTransaction'] });
    const fast = suiAdapterFor(w, (s, l) => createSuiAdapter(s, l, { baseDelayMs: 1 }));
    await expect(w.payouts(fast)).rejects.toThrow(/UNAVAILABLE/);
    w.node.heal();
    const [stale] = attemptsOfOrder(w.h.db, order(orderId).id);
    expect(stale?.status).toBe('signed');
    const judge = () => fast.judgeSlot({ from: w.hot, attempts: [spendOf(stale!)], recorded: [] });
    expect(await judge()).toMatchObject({ state: 'open' }); // inputs still current: it could land
    await moveHotGasCoin(); // the hot key spent its gas coin outside Kassa: who did is not on record
    expect(await judge()).toMatchObject({ state: 'unexplained' });
    for (let i = 0; i < 3; i++) {
      await w.payouts(fast);
      w.seal();
    }
    expect(order(orderId).status).toBe('PENDING');
    expect((await listOperatorPayouts(w.h.rt, { stuck: true })).map((p) => p.orderId)).toEqual([orderId]);
    expect(attemptsOfOrder(w.h.db, order(orderId).id)).toHaveLength(1);
    // the operator checked the chain: that transaction never executed
    await retryOperatorPayout(w.h.rt, fast, orderId);
    const done = await settle(orderId, fast);
    expect(done.status).toBe('SUCCESS');
    const attempts = attemptsOfOrder(w.h.db, done.id);
    expect(attempts.map((a) => a.status)).toEqual(['dropped', 'final']);
    expect((await w.balanceOf(receiver, w.node.usdcType)) - before).toBe(4n * USDC);
    expect((await w.adapter.lookup(stale!.txHash)).state).toBe('unknown');
  });

  it('fails the payout when its transaction runs out of gas on chain, and sends nothing again', async () => {
    // as if the dry run under-reported the cost
    const under = suiAdapterFor(w, (s, l) => createSuiAdapter(s, l, { gasBudget: (cost) => cost / 2n }));
    const before = await w.balanceOf(receiver, w.node.usdcType);
    const usdcBefore = await w.balanceOf(w.hot, w.node.usdcType);
    const { orderId } = await payout('USDC', '5');
    const done = await settle(orderId, under);
    expect(done.status).toBe('FAILED');
    expect(done.reason).toContain('Insufficient Gas');
    expect(done.transaction).toMatchObject({ status: 'FAILED' });
    expect(await w.balanceOf(receiver, w.node.usdcType)).toBe(before);
    expect(await w.balanceOf(w.hot, w.node.usdcType)).toBe(usdcBefore);
    const attempts = attemptsOfOrder(w.h.db, done.id);
    expect(attempts.map((a) => a.status)).toEqual(['failed']);
    const { transaction } = await w.client.core.getTransaction({ digest: attempts[0]!.txHash });
    expect(transaction.effects?.status.success).toBe(false);
  });

  it('fails a payout with the reason, sending nothing, when the hot wallet lost its SUI for gas after accepting it', async () => {
    const { orderId, res } = await payout('USDC', '6');
    expect(res.status).toBe(200);
    // the operator empties the hot wallet's SUI between acceptance and sending
    const { tx } = await newTransaction(w.client, w.hot);
    tx.transferObjects([tx.gas], receiver);
    const bytes = await tx.build();
    await w.client.core.executeTransaction({
      transaction: bytes,
      signatures: [(await w.hotKey.signTransaction(bytes)).signature],
    });
    w.seal();
    const usdcBefore = await w.balanceOf(w.hot, w.node.usdcType);
    const done = await settle(orderId);
    expect(done.status).toBe('FAILED');
    expect(done.reason).toMatch(/too little SUI/);
    expect(attemptsOfOrder(w.h.db, done.id)).toHaveLength(0);
    expect(await w.balanceOf(w.hot, w.node.usdcType)).toBe(usdcBefore);
    // and a new payout is refused up front until the wallet is funded again
    const refused = await payout('USDC', '1');
    expect(refused.res.status).toBe(422);
    await w.node.fundSui(w.hot, 10n * SUI);
    w.seal();
  });

  it('refuses a payout the hot wallet cannot cover with 422, counting payouts already queued', async () => {
    const held = await w.balanceOf(w.hot, w.node.usdcType);
    const whole = held / USDC;
    const first = await payout('USDC', String(whole - 10n));
    expect(first.res.status).toBe(200);
    const second = await payout('USDC', '20');
    expect(second.res.status).toBe(422);
    expect(second.r.msg).toBe('Insufficient balance for this payout.');
    const small = await payout('USDC', '5');
    expect(small.res.status).toBe(200);
    expect((await payout('SUI', '1000000')).res.status).toBe(422);
  });
});
