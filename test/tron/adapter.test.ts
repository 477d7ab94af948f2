import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenSpec } from '../../src/chains/port.ts';
import { createTronAdapter, type TronAdapter } from '../../src/chains/tron/adapter.ts';
import type { TronOptions } from '../../src/chains/tron/context.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { loadConfig } from '../../src/config/load.ts';
import { type FakeTronNode, startFakeTronNode } from '../../src/devnet/tron/index.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { startFaultProxy } from '../helpers/fault-proxy.ts';
import { body, TEST_MNEMONIC } from '../helpers/harness.ts';
import { spendOfSigned } from '../helpers/spends.ts';
import {
  CUSTOMER,
  CUSTOMER_KEY,
  HOT,
  SUN,
  tronChainConfig,
  tronGenesis,
  tronWorld,
  USDT,
} from '../helpers/tron-chain.ts';
import { startGate } from './gate.ts';

let node: FakeTronNode;
const usdt: TokenSpec = { symbol: 'USDT', contract: USDT, decimals: 6 };
const trx: TokenSpec = { symbol: 'TRX', contract: null, decimals: 6 };
const hot = createKeyRing(TEST_MNEMONIC).hotWallet('TRON');
const watched = TronWeb.address.fromPrivateKey('77'.repeat(32)) as string;
const other = TronWeb.address.fromPrivateKey('78'.repeat(32)) as string;

beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());

async function adapterFor(
  options: {
    rpc?: string[];
    confirmations?: number | 'finalized';
    chainId?: number;
    tokens?: unknown[];
  } & TronOptions = {},
) {
  const base = tronChainConfig(options.rpc ?? [node.url], { confirmations: options.confirmations }) as {
    chains: { TRON: { testnet: Record<string, unknown> } };
  };
  if (options.chainId !== undefined) base.chains.TRON.testnet.chainId = options.chainId;
  if (options.tokens) base.chains.TRON.testnet.tokens = options.tokens;
  const config = await loadConfig({ env: {}, overrides: base });
  return createTronAdapter(activeChain(config, 'TRON'), silentLogger(), options);
}

/** The customer pays with tronweb; returns the txid (in the pool, not mined). */
async function customerPays(
  to: string,
  amount: bigint,
  options: { token?: boolean; feeLimit?: number } = {},
) {
  const tronWeb = new TronWeb({ fullHost: node.url, privateKey: CUSTOMER_KEY });
  const unsigned =
    options.token === false
      ? await tronWeb.transactionBuilder.sendTrx(to, Number(amount), CUSTOMER)
      : (
          await tronWeb.transactionBuilder.triggerSmartContract(
            USDT,
            'transfer(address,uint256)',
            { feeLimit: options.feeLimit ?? 50_000_000 },
            [
              { type: 'address', value: to },
              { type: 'uint256', value: amount.toString() },
            ],
            CUSTOMER,
          )
        ).transaction;
  const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(unsigned, CUSTOMER_KEY));
  expect(sent.result).toBe(true);
  return unsigned.txID as string;
}

describe('TronAdapter against the fake node', () => {
  it('reports the head and, by default, the solidified block as final; N confirmations = head − N + 1', async () => {
    const a = await adapterFor();
    expect(await a.heads()).toEqual({ head: node.head(), final: node.solid() });
    expect(node.head() - node.solid()).toBe(19);
    const b = await adapterFor({ confirmations: 5 });
    expect(await b.heads()).toEqual({ head: node.head(), final: node.head() - 4 });
  });

  it('reads a block as {number, blockID, unix seconds}, and null above the head', async () => {
    const a = await adapterFor();
    const ref = await a.block(node.head());
    expect(ref).toEqual({
      number: node.head(),
      hash: node.state().headBlockId,
      timestamp: Math.floor(node.state().headTimestamp / 1000),
    });
    expect(await a.block(node.head() + 1)).toBeNull();
  });

  it('reads TRX and USDT balances exactly', async () => {
    const a = await adapterFor();
    expect(await a.balance(HOT, trx)).toBe(node.trxBalance(HOT));
    expect(await a.balance(HOT, usdt)).toBe(1_000_000n * SUN);
    expect(await a.balance(watched, usdt)).toBe(0n);
    expect(await a.balance(watched, trx)).toBe(0n);
  });

  it('scans USDT and TRX deposits to watched addresses only, with the same keys every time', async () => {
    const a = await adapterFor();
    const from = node.head() + 1;
    const tokenTx = await customerPays(watched, 1_500_000n);
    await customerPays(other, 2_000_000n);
    const trxTx = await customerPays(watched, 3_000_000n, { token: false });
    node.mine(1);
    const failedTx = await customerPays(watched, 4_000_000n, { feeLimit: 100_000 }); // runs out of energy
    node.mine(2);
    const found = await a.scan(from, node.head(), new Set([watched]), [usdt, trx]);
    expect(found.map((t) => [t.txid, t.eventKey, t.contract, t.to, t.amountBase, t.success])).toEqual([
      [trxTx, 'native', null, watched, 3_000_000n, true],
      [tokenTx, '0', USDT, watched, 1_500_000n, true],
    ]);
    expect(found.find((t) => t.txid === failedTx)).toBeUndefined(); // a reverted call logs nothing
    expect(found[0]).toMatchObject({
      from: CUSTOMER,
      blockNum: from,
      blockHash: (await a.block(from))?.hash,
    });
    expect(await a.scan(from, node.head(), new Set([watched]), [usdt, trx])).toEqual(found);
    expect(await a.scan(from, node.head(), new Set([watched]), [trx])).toHaveLength(1);
    expect(await a.scan(from, node.head(), new Set(), [usdt, trx])).toEqual([]);
  });

  it('keeps txid and log position when a fork re-includes the transaction in another block', async () => {
    const a = await adapterFor();
    const txid = await customerPays(watched, 5_000_000n);
    node.mine(1);
    const first = (await a.scan(node.head(), node.head(), new Set([watched]), [usdt]))[0];
    node.fork(1, { reinclude: true });
    node.mine(1);
    const again = (await a.scan(node.head(), node.head(), new Set([watched]), [usdt]))[0];
    expect(again).toMatchObject({ txid, eventKey: first?.eventKey, blockNum: first?.blockNum });
    expect(again?.blockHash).not.toBe(first?.blockHash);
  });

  it('connects, and disables the chain when a configured token does not exist or the genesis is another network', async () => {
    await expect((await adapterFor()).connect()).resolves.toBeUndefined();
    const missing = await adapterFor({
      tokens: [{ symbol: 'USDT', contract: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', decimals: 6 }],
    });
    await expect(missing.connect()).rejects.toMatchObject({ name: 'ChainError', code: 'wrong_network' });
    const genesis = await (
      await fetch(`${node.url}/wallet/getblockbynum`, { method: 'POST', body: '{"num":0}' })
    ).json();
    const id = Number.parseInt(String(genesis.blockID).slice(-8), 16);
    await expect((await adapterFor({ chainId: id })).connect()).resolves.toBeUndefined();
    await expect((await adapterFor({ chainId: 728126428 })).connect()).rejects.toThrow(/chain id/);
  });

  it('prices a payout pessimistically: a new holder when the recipient is unknown, staked resources first, activation for TRX', async () => {
    const a = await adapterFor();
    // hot wallet: no staked energy; a new holder needs 29 650 energy at 100 sun, plus 350 bytes burnt
    expect(await a.payoutFeeEstimate(HOT, HOT, usdt, 1n)).toBe(2_965_000n + 350_000n);
    expect(await a.payoutFeeEstimate(HOT, CUSTOMER, usdt, 1n)).toBe(1_465_000n + 350_000n); // an existing holder
    expect(await a.payoutFeeEstimate(HOT, HOT, trx, 1n)).toBe(1_100_000n); // unknown: assume activation
    expect(await a.payoutFeeEstimate(HOT, CUSTOMER, trx, 1n)).toBe(300_000n);
    expect(await a.payoutFeeEstimate(HOT, HOT, usdt, 10n ** 15n)).toBe(13_028_500n + 350_000n); // reverts: worst case
  });

  it('signs a payout the node accepts, broadcasts it twice harmlessly, and follows it to a successful lookup', async () => {
    const a = await adapterFor();
    const to = TronWeb.address.fromPrivateKey('79'.repeat(32)) as string;
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to,
      token: usdt,
      amountBase: 2_000_000n,
      nonce: null,
    });
    expect(signed.nonce).toBeNull();
    expect(signed.validUntil).toBe(node.state().headTimestamp + 180_000);
    expect(await a.lookup(signed.txHash)).toEqual({ state: 'unknown' });
    expect(await a.broadcast(signed)).toEqual({ ok: true });
    expect(await a.broadcast(signed)).toEqual({ ok: true }); // DUP_TRANSACTION_ERROR
    node.mine(1);
    expect(await a.lookup(signed.txHash)).toEqual({
      state: 'mined',
      blockNum: node.head(),
      blockHash: node.state().headBlockId,
      timestamp: Math.floor(node.state().headTimestamp / 1000),
      success: true,
    });
    expect(node.trc20Balance(USDT, to)).toBe(2_000_000n);
    await expect(
      a.signPayout({
        privateKey: Buffer.alloc(32, 1),
        from: HOT,
        to,
        token: usdt,
        amountBase: 1n,
        nonce: null,
      }),
    ).rejects.toThrow(/does not match the hot wallet/);
  });

  it('looks up an out-of-energy payout as mined and failed, with the reason', async () => {
    const a = await adapterFor();
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to: other,
      token: usdt,
      amountBase: 1n,
      nonce: null,
    });
    expect(await a.broadcast(signed)).toEqual({ ok: true });
    const trxBefore = node.trxBalance(HOT);
    node.setTrx(HOT, 500_000n);
    node.mine(1);
    const found = await a.lookup(signed.txHash);
    expect(found).toMatchObject({ state: 'mined', success: false });
    expect(found.state === 'mined' && found.error).toMatch(/^OUT_OF_ENERGY \(Not enough energy/);
    node.setTrx(HOT, trxBefore);
  });

  it('judges a slot dead only once the solidified block is past the expiration (plus a margin) and the chain has no trace of it', async () => {
    const a = await adapterFor();
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to: other,
      token: trx,
      amountBase: 1n,
      nonce: null,
    });
    expect(signed.slot).toMatch(/^ref block [0-9a-f]{4}\/[0-9a-f]{16}, expires \d{4}-/);
    const judge = (s: typeof signed) =>
      a.judgeSlot({ from: HOT, attempts: [spendOfSigned(s)], recorded: [] });
    expect(await judge(signed)).toMatchObject({ state: 'open' });
    node.mine(60); // the head passes the expiration, the solidified block does not
    expect(await judge(signed)).toMatchObject({ state: 'open' });
    expect(await a.broadcast(signed)).toMatchObject({
      ok: false,
      permanent: true,
      error: /TRANSACTION_EXPIRATION_ERROR/,
    });
    node.mine(29); // the solidified block is 30 s past the expiration: inside the margin
    expect(await judge(signed)).toMatchObject({ state: 'open' });
    node.mine(10); // now 60 s past it
    expect(await judge(signed)).toMatchObject({
      state: 'dead',
      proof: expect.stringMatching(/^expired at /),
    });
    expect(await judge({ ...signed, validUntil: null })).toMatchObject({ state: 'open' });

    // one that landed is never dead, however old
    const landed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to: other,
      token: trx,
      amountBase: 1n,
      nonce: null,
    });
    await a.broadcast(landed);
    node.mine(100);
    expect(await judge(landed)).toEqual({ state: 'landed', txHash: landed.txHash });
  });

  it('asks a second endpoint before calling a slot dead, and waits while one lags behind', async () => {
    const proxy = await startFaultProxy(node.url);
    try {
      const a = await adapterFor({ rpc: [proxy.endpoint('current'), proxy.endpoint('lagging')] });
      const signed = await a.signPayout({
        privateKey: hot.privateKey,
        from: HOT,
        to: other,
        token: trx,
        amountBase: 1n,
        nonce: null,
      });
      const stale = await (
        await fetch(`${node.url}/walletsolidity/getblock`, { method: 'POST', body: '{"detail":false}' })
      ).json();
      node.mine(100); // long expired on the current node
      const lag = proxy.add({
        endpoint: 'lagging',
        method: /^\/walletsolidity\/getblock/,
        fault: { kind: 'rewrite', body: () => stale },
      });
      const judge = () => a.judgeSlot({ from: HOT, attempts: [spendOfSigned(signed)], recorded: [] });
      const lagging = await judge();
      expect(lagging).toMatchObject({
        state: 'open',
        detail: expect.stringMatching(/^endpoints disagree: dead/),
      });
      expect(lag.fired).toBeGreaterThan(0);
      lag.remove();
      // the second endpoint cannot answer at all: nothing is concluded from one
      const down = proxy.add({ endpoint: 'lagging', fault: { kind: 'status', status: 503 } });
      expect(await judge()).toMatchObject({ state: 'open', detail: expect.stringMatching(/not confirmed/) });
      down.remove();
      expect(await judge()).toMatchObject({ state: 'dead' });
    } finally {
      await proxy.close();
    }
  });

  it('rejects for good a payout to something that is not a TRON address', async () => {
    const a = await adapterFor();
    await expect(
      a.signPayout({
        privateKey: hot.privateKey,
        from: HOT,
        to: '0x1111111111111111111111111111111111111111x',
        token: usdt,
        amountBase: 1n,
        nonce: null,
      }),
    ).rejects.toMatchObject({ name: 'ChainError', code: 'payout_rejected' });
  });
});

describe('RPC resilience', () => {
  it('reads heads and blocks from a node without /wallet/getblock (java-tron before 4.7)', async () => {
    const gate = await startGate(node.url);
    try {
      gate.missing('/getblock');
      const a = await adapterFor({ rpc: [gate.url] });
      expect(await a.heads()).toEqual({ head: node.head(), final: node.solid() });
      expect(await a.block(node.head())).toMatchObject({
        number: node.head(),
        hash: node.state().headBlockId,
      });
      const signed = await a.signPayout({
        privateKey: hot.privateKey,
        from: HOT,
        to: other,
        token: trx,
        amountBase: 1n,
        nonce: null,
      });
      expect(signed.validUntil).toBe(node.state().headTimestamp + 180_000);
    } finally {
      await gate.stop();
    }
  });

  it('fails over to the next URL when the first refuses connections', async () => {
    const a = await adapterFor({ rpc: ['http://127.0.0.1:9', node.url] });
    expect((await a.heads()).head).toBe(node.head());
    const stats = a.ctx.endpoints.statistics();
    expect(stats[0]?.errors).toBeGreaterThan(0);
    expect(stats[1]?.requests).toBeGreaterThan(0);
  });

  it('retries through 503, 429 and java-tron’s in-band "lack of computing resources"', async () => {
    const a = await adapterFor();
    node.fail({ mode: '503', count: 1, paths: ['getblock'] });
    node.fail({ mode: '429', count: 1, paths: ['getblock'] });
    node.fail({ mode: 'lack-of-resources', count: 1, paths: ['getblock'] });
    expect((await a.heads()).head).toBe(node.head());
    expect(a.ctx.endpoints.statistics()[0]?.errors).toBe(3);
  });

  it('times out a hanging node and fails over to the second URL', async () => {
    const second = node.url.replace('127.0.0.1', 'localhost');
    const a = await adapterFor({ rpc: [node.url, second], timeoutMs: 300 });
    node.fail({ mode: 'timeout', count: 1, paths: ['getblock'] });
    expect((await a.block(1))?.number).toBe(1);
    const stats = a.ctx.endpoints.statistics();
    expect(stats[0]).toMatchObject({ requests: 1, errors: 1 });
    expect(stats[1]).toMatchObject({ requests: 1, errors: 0 });
  });

  it('treats a broadcast whose answer was lost as sent: sending again is a duplicate, not a second payment', async () => {
    const a = await adapterFor({ timeoutMs: 300 });
    const to = TronWeb.address.fromPrivateKey('7a'.repeat(32)) as string;
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to,
      token: usdt,
      amountBase: 7n,
      nonce: null,
    });
    node.fail({ mode: 'timeout', count: 1, paths: ['broadcasttransaction'], afterProcessing: true });
    expect(await a.broadcast(signed)).toEqual({ ok: true }); // the retry answers DUP_TRANSACTION_ERROR
    node.mine(1);
    expect(node.trc20Balance(USDT, to)).toBe(7n);
  });

  it('credits a collection and sends a payout end to end while the first RPC URL is down', async () => {
    const w = await tronWorld({ rpc: (url) => ['http://127.0.0.1:9', url], confirmations: 1 });
    try {
      const m = await w.h.merchant('V3');
      await w.h.fund(m, 'TRON', 'USDT', '1');
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: '3',
          symbol: 'USDT',
          chain: 'TRON',
          orderId: 'f-1',
        }),
      );
      await w.pay('USDT', r.data.address, 3_000_000n);
      await w.scan();
      w.h.clock.advance(600);
      const status = await body<{ status: string }>(
        await w.h.getSigned('/v1/order/status/{orderId}', m, 'f-1'),
      );
      expect(status.data.status).toBe('SUCCESS');
      const payout = await w.h.post('/v1/order/createPayout', m, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'f-2',
        receiveAddress: other,
      });
      expect(payout.status).toBe(200);
      const before = w.node.trc20Balance(USDT, other);
      await w.payouts();
      w.mine(1);
      await w.payouts();
      expect(w.node.trc20Balance(USDT, other) - before).toBe(1_000_000n);
      const stats = w.h.rt.adapters.get('TRON') as TronAdapter;
      expect(stats.ctx.endpoints.statistics()[0]?.errors).toBeGreaterThan(0);
    } finally {
      await w.close();
    }
  });
});
