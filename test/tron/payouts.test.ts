import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { body, TEST_MNEMONIC } from '../helpers/harness.ts';
import { HOT, SUN, type TronWorld, tronWorld, USDT } from '../helpers/tron-chain.ts';

let w: TronWorld;
let m: MerchantCreated;
let n = 0;
/** Receivers that do not exist on chain yet (never held TRX or tokens). */
const fresh = (i: number) =>
  TronWeb.address.fromPrivateKey(`${(0x60 + i).toString(16)}`.repeat(32)) as string;
const HOT_TRX = 1_000n * SUN;

beforeAll(async () => {
  w = await tronWorld();
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'TRON', 'USDT', '100000000');
  await w.h.fund(m, 'TRON', 'TRX', '100000000');
});
afterAll(() => w?.close());

async function payout(symbol: string, amount: string, to: string) {
  const orderId = `p-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount,
    symbol,
    chain: 'TRON',
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

function attempts(orderId: string) {
  return attemptsOfOrder(w.h.db, order(orderId).id);
}

async function infoOf(txid: string) {
  const res = await fetch(`${w.node.url}/wallet/gettransactioninfobyid`, {
    method: 'POST',
    body: JSON.stringify({ value: txid }),
  });
  return (await res.json()) as { fee?: number; receipt: { result?: string; energy_usage_total?: number } };
}

describe('TRON payouts on the fake node', () => {
  it('sends a USDT payout through PENDING and PENDING_CONFIRMATION to SUCCESS; the receiver gets the exact amount', async () => {
    const to = fresh(0);
    const trxBefore = w.node.trxBalance(HOT);
    const usdtBefore = w.node.trc20Balance(USDT, HOT);
    const { orderId, r } = await payout('USDT', '12.5', to);
    expect(r.code).toBe(200);
    expect(r.data.address).toBe(HOT);
    await w.payouts(); // signs, stores, broadcasts into the node's pool
    expect(order(orderId).status).toBe('PENDING');
    const [attempt] = attempts(orderId);
    const raw = JSON.parse(attempt?.rawTx ?? '{}');
    // fee_limit = energy estimate (a new holder: 29 650) × 2 × 100 sun
    expect(raw.raw_data.fee_limit).toBe(5_930_000);
    expect(attempt?.validUntil).toBe(raw.raw_data.expiration);
    w.mine(1);
    await w.payouts();
    expect(order(orderId)).toMatchObject({ status: 'PENDING_CONFIRMATION' });
    w.solidify();
    await w.payouts();
    const done = order(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(done.actualAmountBase).toBe(12_500_000n);
    expect(done.transaction).toMatchObject({ status: 'SUCCESS', confirmedNum: 21, from: HOT, to });
    expect(w.node.trc20Balance(USDT, to)).toBe(12_500_000n);
    expect(usdtBefore - w.node.trc20Balance(USDT, HOT)).toBe(12_500_000n);
    const info = await infoOf(attempt?.txHash ?? '');
    expect(info.receipt.result).toBe('SUCCESS');
    expect(trxBefore - w.node.trxBalance(HOT)).toBe(BigInt(info.fee ?? 0)); // only the fee, in TRX
    const events = w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => JSON.parse(e.data).orderId === orderId);
    expect(events.map((e) => e.notifyType)).toEqual([
      'ORDER_PENDING',
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_SUCCESS',
    ]);
  });

  it('never sends the same payout twice, however often the job runs', async () => {
    const to = fresh(1);
    const { orderId } = await payout('USDT', '1', to);
    for (let i = 0; i < 4; i++) await w.payouts();
    w.mine(1);
    for (let i = 0; i < 3; i++) await w.payouts();
    w.solidify();
    await w.payouts();
    expect(order(orderId).status).toBe('SUCCESS');
    expect(attempts(orderId)).toHaveLength(1);
    expect(w.node.trc20Balance(USDT, to)).toBe(1_000_000n);
  });

  it('sends TRX to an account that does not exist yet, paying its activation', async () => {
    const to = fresh(2);
    const before = w.node.trxBalance(HOT);
    const { orderId } = await payout('TRX', '3.5', to);
    await w.payouts();
    w.mine(1);
    w.solidify();
    await w.payouts();
    expect(order(orderId).status).toBe('SUCCESS');
    expect(w.node.trxBalance(to)).toBe(3_500_000n);
    const info = await infoOf(attempts(orderId)[0]?.txHash ?? '');
    expect(info.fee).toBe(1_100_000); // 1 TRX creation fee + 0.1 TRX bandwidth
    expect(before - w.node.trxBalance(HOT)).toBe(3_500_000n + 1_100_000n);
  });

  it('fails a payout whose transfer runs out of energy on chain, with the reason; the receiver gets nothing', async () => {
    const to = fresh(3);
    const { orderId } = await payout('USDT', '4', to);
    await w.payouts(); // signed and in the pool while the wallet could pay
    w.node.setTrx(HOT, 1n * SUN); // then its TRX is spent elsewhere before the block: 1 TRX buys 10 000 energy
    w.mine(1);
    await w.payouts();
    expect(order(orderId).status).toBe('PENDING_CONFIRMATION');
    w.solidify();
    await w.payouts();
    const failed = order(orderId);
    expect(failed.status).toBe('FAILED');
    expect(failed.reason).toMatch(/^The payout transaction failed on chain: OUT_OF_ENERGY/);
    expect(failed.transaction).toMatchObject({ status: 'FAILED' });
    expect((await infoOf(attempts(orderId)[0]?.txHash ?? '')).receipt.result).toBe('OUT_OF_ENERGY');
    expect(w.node.trc20Balance(USDT, to)).toBe(0n);
    expect(attempts(orderId)).toHaveLength(1); // failed on chain: never retried with a second transaction
    w.node.setTrx(HOT, HOT_TRX);
  });

  it('does not sign a token payout while the wallet lacks the TRX for its energy, and sends it once topped up', async () => {
    const to = fresh(4);
    const { orderId } = await payout('USDT', '2', to);
    w.node.setTrx(HOT, 2n * SUN); // a new holder costs 29 650 energy = 2.965 TRX
    await expect(w.payouts()).rejects.toThrow(/holds 2 TRX; this transfer burns about 3\.\d+ TRX/);
    expect(order(orderId).status).toBe('INIT');
    expect(attempts(orderId)).toHaveLength(0);
    w.node.setTrx(HOT, HOT_TRX);
    await w.payouts();
    w.mine(1);
    w.solidify();
    await w.payouts();
    expect(order(orderId).status).toBe('SUCCESS');
    expect(w.node.trc20Balance(USDT, to)).toBe(2_000_000n);
  });

  it('fails a payout the token would revert (the wallet no longer holds the tokens), sending nothing', async () => {
    const to = fresh(5);
    const { orderId } = await payout('USDT', '50', to);
    // the tokens leave the hot wallet by another way before the job runs
    const hot = createKeyRing(TEST_MNEMONIC).hotWallet('TRON');
    const tronWeb = new TronWeb({ fullHost: w.node.url, privateKey: hot.privateKey.toString('hex') });
    const held = w.node.trc20Balance(USDT, HOT);
    const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
      USDT,
      'transfer(address,uint256)',
      { feeLimit: 50_000_000 },
      [
        { type: 'address', value: fresh(6) },
        { type: 'uint256', value: (held - 10_000_000n).toString() },
      ],
      HOT,
    );
    await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction));
    w.mine(1);
    await w.payouts();
    const failed = order(orderId);
    expect(failed.status).toBe('FAILED');
    expect(failed.reason).toContain('The transfer would revert');
    expect(attempts(orderId)).toHaveLength(0);
    w.node.mintTrc20(USDT, HOT, 1_000_000n * SUN);
  });

  it('sends a stored transaction the node never accepted again as the same bytes while it can still land', async () => {
    const to = fresh(7);
    const { orderId } = await payout('USDT', '3', to);
    w.node.fail({ mode: '503', count: 'always', paths: ['broadcasttransaction'] });
    await expect(w.payouts()).rejects.toThrow(/HTTP 503/);
    w.node.clearFailures();
    const [lost] = attempts(orderId);
    expect(lost?.status).toBe('signed'); // stored before broadcast, never accepted
    // while it may still land it is only ever sent again as the same bytes
    w.mine(40); // 2 minutes: before its expiration (3 minutes past the head when signed)
    await w.payouts();
    expect(attempts(orderId).map((a) => a.txHash)).toEqual([lost?.txHash]);
    w.mine(1);
    w.solidify();
    await w.payouts();
    expect(order(orderId).status).toBe('SUCCESS');
    expect(w.node.trc20Balance(USDT, to)).toBe(3_000_000n);
  });

  it('signs a new transaction when the first expired without landing, and pays once', async () => {
    const to = fresh(8);
    const { orderId } = await payout('USDT', '5', to);
    w.node.fail({ mode: '503', count: 'always', paths: ['broadcasttransaction'] });
    await expect(w.payouts()).rejects.toThrow(/HTTP 503/);
    w.node.clearFailures();
    const [lost] = attempts(orderId);
    w.mine(60 + 20 + 20); // its 3-minute expiration and the 1-minute margin pass, then solidify
    await w.payouts(); // the old bytes are refused as expired, proven absent, dropped; a new transaction goes out
    const all = attempts(orderId);
    expect(all).toHaveLength(2);
    expect(all.find((a) => a.txHash === lost?.txHash)?.status).toBe('dropped');
    w.mine(1);
    w.solidify();
    await w.payouts();
    expect(order(orderId).status).toBe('SUCCESS');
    expect(w.node.trc20Balance(USDT, to)).toBe(5_000_000n);
  });

  describe('createPayout refuses with 422 what the hot wallet cannot pay', () => {
    it('more USDT than the wallet holds, counting payouts already queued', async () => {
      const held = w.node.trc20Balance(USDT, HOT) / SUN;
      const first = await payout('USDT', String(held - 10n), fresh(9));
      expect(first.res.status).toBe(200);
      const second = await payout('USDT', '20', fresh(10));
      expect(second.res.status).toBe(422);
      expect(second.r.msg).toBe('Insufficient balance for this payout.');
      expect((await payout('USDT', '5', fresh(11))).res.status).toBe(200);
      w.h.db.$client
        .prepare("UPDATE orders SET status = 'EXPIRED' WHERE type = 'PAYOUT' AND status = 'INIT'")
        .run();
    });

    it('a USDT payout when the wallet lacks the TRX to burn for its energy', async () => {
      w.node.setTrx(HOT, 3n * SUN); // a new holder: 29 650 energy = 2.965 TRX, plus 0.35 TRX of bandwidth
      const res = (await payout('USDT', '1', fresh(12))).res;
      expect(res.status).toBe(422);
      w.node.setTrx(HOT, 4n * SUN);
      expect((await payout('USDT', '1', fresh(13))).res.status).toBe(200);
      w.h.db.$client
        .prepare("UPDATE orders SET status = 'EXPIRED' WHERE type = 'PAYOUT' AND status = 'INIT'")
        .run();
      w.node.setTrx(HOT, HOT_TRX);
    });

    it('a USDT payout with staked energy to spend needs only the bandwidth in TRX', async () => {
      const staked = await tronWorld({
        genesis: {
          tokens: [{ symbol: 'USDT', name: 'Tether USD', decimals: 6, returnsFalse: true, address: USDT }],
          accounts: [{ address: HOT, trx: 1n * SUN, tokens: { USDT: 100n * SUN }, stakedEnergy: 100_000 }],
        },
      });
      try {
        const sm = await staked.h.merchant('V3');
        await staked.h.fund(sm, 'TRON', 'USDT', '1');
        const res = await staked.h.post('/v1/order/createPayout', sm, {
          amount: '1',
          symbol: 'USDT',
          chain: 'TRON',
          orderId: 'staked-1',
          receiveAddress: fresh(14),
        });
        expect(res.status).toBe(200);
      } finally {
        await staked.close();
      }
    });

    it('a TRX payout that leaves nothing for the activation of a new account', async () => {
      w.node.setTrx(HOT, 10n * SUN);
      expect((await payout('TRX', '9', fresh(15))).res.status).toBe(422); // 9 + 1.1 > 10
      expect((await payout('TRX', '8.8', fresh(16))).res.status).toBe(200);
      w.h.db.$client
        .prepare("UPDATE orders SET status = 'EXPIRED' WHERE type = 'PAYOUT' AND status = 'INIT'")
        .run();
      w.node.setTrx(HOT, HOT_TRX);
    });
  });
});
