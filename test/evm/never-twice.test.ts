import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listBalances } from '../../src/db/repositories/ledger.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import { collectMetrics } from '../../src/services/collect-metrics.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { listOperatorPayouts, retryOperatorPayout } from '../../src/services/manage-payouts.ts';
import { kassaAsync } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { spendOfSigned } from '../helpers/spends.ts';

/**
 * Issue 11's double payment, reproduced and closed: a JSON-RPC proxy in front of anvil whose
 * backends lag (they do not know a mined payout yet), fail over between calls, or lose the answer
 * to a successful eth_sendRawTransaction. In every case the receiver's token balance rises by the
 * payout amount exactly once; a payout whose nonce was spent by something Kassa cannot identify is
 * held for the operator instead of being signed at a new nonce.
 */
let w: EvmWorld;
let proxy: FaultProxy;
let m: MerchantCreated;
let n = 0;
let configFile: string;
const logs: { level: number; msg: string; orderId?: string }[] = [];

beforeAll(async () => {
  w = await evmWorld(['ETH'], {
    rpc: async (_chain, url) => {
      proxy = await startFaultProxy(url);
      return [proxy.endpoint('a'), proxy.endpoint('b')];
    },
  });
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'ETH', 'USDT', '1000');
  configFile = join(w.h.dir, 'kassa.json');
  writeFileSync(
    configFile,
    JSON.stringify(devnetChainConfig(w.devnet, { rpc: () => [proxy.endpoint('a'), proxy.endpoint('b')] })),
  );
  w.h.rt.logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    }),
  );
});
afterEach(() => proxy.clear());
afterAll(async () => {
  await proxy?.close();
  await w?.close();
});

/** `kassa …` on the test's database and chain (through the proxy), as an operator runs it. */
const cli = (args: string[]) =>
  kassaAsync([...args, '--config', configFile], {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
  });

const receiver = (i: number) => `0x${(0x5000 + i).toString(16).padStart(40, '0')}` as Address;

async function payout(amount: string, to: Address) {
  const orderId = `nt-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount,
    symbol: 'USDT',
    chain: 'ETH',
    orderId,
    receiveAddress: to,
  });
  expect((await body(res)).code).toBe(200);
  return orderId;
}

function order(orderId: string) {
  const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
}

const attempts = (orderId: string) => attemptsOfOrder(w.h.db, order(orderId).id);

const received = (to: Address) => {
  const c = w.devnet.get('ETH');
  return tokenBalance(c.client, c.tokens.USDT.address, to);
};

/** Every transaction and receipt hidden on the endpoints given: a backend that has not seen the new blocks. */
const lagging = (endpoint?: string) =>
  proxy.add({
    ...(endpoint ? { endpoint } : {}),
    method: /^eth_getTransaction(Receipt|ByHash)$/,
    fault: { kind: 'result', result: null },
  });

const stuck = async () => (await listOperatorPayouts(w.h.rt, { stuck: true })).map((p) => p.orderId);

async function heldMetric(): Promise<string | undefined> {
  const text = await collectMetrics(w.h.rt);
  return text.split('\n').find((l) => l.startsWith('kassa_payouts_held{chain="ETH",kind="stuck"}'));
}

/** Payout passes with a block mined after each: what the worker does over a few polls. */
async function passes(count: number) {
  for (let i = 0; i < count; i++) {
    await w.payouts('ETH');
    await w.mine('ETH', 1);
  }
}

describe('a payout is never paid twice', () => {
  it('holds a payout whose mined transaction every backend hides, and settles it once they catch up (the 7 USDT of the issue)', async () => {
    const to = receiver(1);
    const id = await payout('7', to);
    await w.payouts('ETH'); // signed, broadcast, mined by anvil at once
    expect(order(id).status).toBe('PENDING_CONFIRMATION');
    const hide = lagging();
    await passes(4);
    // without the rule, Kassa signed it again at nonce + 1 on every pass (28 USDT in 4 passes)
    expect(await received(to)).toBe(7_000_000n);
    expect(attempts(id)).toHaveLength(1);
    expect(order(id).status).toBe('PENDING');
    expect(await stuck()).toEqual([id]);
    expect(await heldMetric()).toBe('kassa_payouts_held{chain="ETH",kind="stuck"} 1');
    const held = logs.filter((l) => l.level === 50 && l.orderId === id);
    expect(held).toHaveLength(1); // logged once, not on every pass
    expect(held[0]?.msg).toMatch(/^payout held: check the chain/);

    hide.remove();
    // the operator wants to retry, but the chain now shows the transaction: refused
    await expect(retryOperatorPayout(w.h.rt, w.h.rt.adapters.get('ETH') ?? null, id)).rejects.toThrow(
      /is in block \d+; it will be followed, not sent again/,
    );
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(7_000_000n);
    expect(await stuck()).toEqual([]);
    expect(await heldMetric()).toBe('kassa_payouts_held{chain="ETH",kind="stuck"} 0');
  });

  it('never re-signs when reads fail over between a lagging backend and a current one', async () => {
    const to = receiver(2);
    const id = await payout('3', to);
    await w.payouts('ETH');
    lagging('a');
    // the lagging backend also refuses the nonce count, so that read fails over to the current one:
    // "unknown transaction" from one node, "nonce used" from the other (what double-paid before)
    proxy.add({ endpoint: 'a', method: 'eth_getTransactionCount', fault: { kind: 'status', status: 503 } });
    await passes(4);
    expect(await received(to)).toBe(3_000_000n);
    expect(attempts(id)).toHaveLength(1);
    expect(await stuck()).toEqual([]); // the current backend shows it landed: nothing to hold
    proxy.clear();
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(3_000_000n);
  });

  it('sends the same bytes again when the answer to a successful eth_sendRawTransaction is lost', async () => {
    const to = receiver(3);
    const id = await payout('2.5', to);
    const drop = proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'drop-response' } });
    await w.payouts('ETH');
    expect(drop.fired).toBe(1);
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(attempts(id)).toHaveLength(1);
    expect(await received(to)).toBe(2_500_000n);
  });

  it('holds, then settles, a payout whose broadcast answer is lost while every backend lags', async () => {
    const to = receiver(4);
    const id = await payout('4', to);
    proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'drop-response' } });
    const hide = lagging();
    await passes(3);
    expect(await received(to)).toBe(4_000_000n);
    expect(attempts(id)).toHaveLength(1);
    expect(await stuck()).toEqual([id]);
    hide.remove();
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(4_000_000n);
  });
});

describe('a payout whose nonce was spent by a transaction Kassa did not record', () => {
  const c = () => w.devnet.get('ETH');

  /** Holds the payout's broadcast at the proxy, spends its nonce with the hot key elsewhere, then lets the broadcast go. */
  async function spendNonceElsewhere(id: string) {
    proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'hold' } });
    const pass = w.payouts('ETH');
    await expect.poll(() => proxy.held).toBe(1);
    const [signed] = attempts(id);
    const hot = privateKeyToAccount(`0x${w.h.rt.keys?.hotWallet('ETH').privateKey.toString('hex')}`);
    const hash = await c().client.sendTransaction({
      account: hot,
      chain: c().client.chain,
      to: hot.address,
      value: 0n,
      nonce: signed?.nonce ?? 0,
    });
    await c().client.waitForTransactionReceipt({ hash });
    proxy.release();
    await pass;
  }

  it('is held, and signed in a new slot once the operator retries; the receiver is paid once', async () => {
    const to = receiver(5);
    const id = await payout('6', to);
    await spendNonceElsewhere(id);
    await passes(2);
    expect(order(id).status).toBe('PENDING');
    expect(await stuck()).toEqual([id]);
    const listed = (await listOperatorPayouts(w.h.rt, { stuck: true }))[0];
    expect(listed?.holdReason).toMatch(
      /^Its spend slot \(nonce \d+\) was used by a transaction Kassa did not record/,
    );
    expect(await received(to)).toBe(0n);

    // the operator checked the chain, after the payout's expiry: it did not land; send it anyway
    w.h.clock.advance(31 * 60_000);
    const retried = await cli(['payouts', 'retry', id, '--json']);
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ orderId: id, status: 'PENDING', hold: null });
    await passes(4);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(6_000_000n);
    const all = attempts(id);
    expect(all.map((a) => a.status)).toEqual(['dropped', 'final']);
    expect(all[1]?.nonce).toBe((all[0]?.nonce ?? 0) + 1);
  });

  it('ends FAILED with the operator’s reason when failed; its frozen balance is released and the merchant told', async () => {
    const to = receiver(6);
    const before = (await listBalances(w.h.db, { merchantId: m.merchantId }))[0];
    const id = await payout('9', to);
    const frozen = (await listBalances(w.h.db, { merchantId: m.merchantId }))[0];
    expect((frozen?.available ?? 0n) - (before?.available ?? 0n)).toBe(-9_000_000n);
    await spendNonceElsewhere(id);
    await passes(1);
    expect(await stuck()).toEqual([id]);
    expect((await cli(['payouts', 'fail', id])).code).toBe(2); // a reason is required
    const failed = await cli(['payouts', 'fail', id, '--reason', 'paid by hand from the cold wallet']);
    expect(failed.code).toBe(0);
    expect(failed.stdout).toBe(`payout ${id} (${m.merchantId}) failed: FAILED\n`);
    expect(order(id)).toMatchObject({ status: 'FAILED', reason: 'paid by hand from the cold wallet' });
    const after = (await listBalances(w.h.db, { merchantId: m.merchantId }))[0];
    expect(after?.available).toBe(before?.available);
    expect(after?.frozen).toBe(before?.frozen);
    await passes(2);
    expect(await received(to)).toBe(0n);
    expect(attempts(id).map((a) => a.status)).toEqual(['dropped']);
    const events = w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => JSON.parse(e.data).orderId === id)
      .map((e) => e.notifyType);
    expect(events.at(-1)).toBe('ORDER_FAILED');
  });
});

describe('the EVM slot verdict', () => {
  const c = () => w.devnet.get('ETH');
  const adapter = () => {
    const a = w.h.rt.adapters.get('ETH');
    if (!a) throw new Error('no ETH adapter');
    return a;
  };
  const hot = () => {
    const k = w.h.rt.keys?.hotWallet('ETH');
    if (!k) throw new Error('no keys');
    return k;
  };

  it('is dead only when the nonce was used by a transaction Kassa recorded, unexplained when by anything else', async () => {
    const token = { symbol: 'USDT', contract: c().tokens.USDT.address, decimals: 6 };
    const nonce = await (adapter().nextNonce as (a: string) => Promise<number>)(hot().address);
    const sign = (to: string) =>
      adapter().signPayout({
        privateKey: hot().privateKey,
        from: hot().address,
        to,
        token,
        amountBase: 1n,
        nonce,
      });
    const ours = await sign(receiver(20));
    const rival = await sign(receiver(21)); // the same nonce: only one of the two can ever land
    const judge = (recorded: (typeof ours)[]) =>
      adapter().judgeSlot({
        from: hot().address,
        attempts: [spendOfSigned(ours)],
        recorded: recorded.map(spendOfSigned),
      });
    expect(await judge([rival])).toMatchObject({ state: 'open' }); // nothing used the nonce yet
    expect(await adapter().broadcast(rival)).toEqual({ ok: true });
    await c().client.waitForTransactionReceipt({ hash: rival.txHash as `0x${string}` });
    expect(await judge([rival])).toEqual({
      state: 'dead',
      proof: `nonce ${nonce} was used by Kassa's transaction ${rival.txHash}`,
    });
    expect(await judge([])).toMatchObject({ state: 'unexplained' });
    expect(
      await adapter().judgeSlot({ from: hot().address, attempts: [spendOfSigned(rival)], recorded: [] }),
    ).toEqual({ state: 'landed', txHash: rival.txHash });
    // one endpoint that does not see the rival yet keeps it from being called dead
    const hide = proxy.hideTransactions([rival.txHash], { endpoint: 'b' });
    expect(await judge([rival])).toMatchObject({
      state: 'open',
      detail: expect.stringMatching(/^endpoints disagree/),
    });
    hide.remove();
  });
});
