import { providers } from 'tronweb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeTronNode } from './server.ts';
import { ADDRESSES, hexOf, post, sendTrx, startTestNode, tronwebFor, USDT } from './test-kit.ts';

/* Injected failures, and the /_fake/* control API another process (the sandbox) drives. */

describe('failure injection', () => {
  let node: FakeTronNode;

  beforeEach(async () => {
    node = await startTestNode();
  });

  afterEach(async () => {
    await node.close();
  });

  it('answers 503 and 429 for the given number of requests, then recovers', async () => {
    node.fail({ mode: '503', count: 2 });
    expect((await post(node, '/wallet/getnowblock')).status).toBe(503);
    expect((await post(node, '/walletsolidity/getnowblock')).status).toBe(503);
    expect((await post(node, '/wallet/getnowblock')).status).toBe(200);
    node.fail({ mode: '429' });
    const limited = await fetch(`${node.url}/wallet/getnowblock`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await post(node, '/wallet/getnowblock')).status).toBe(200);
  });

  it("answers java-tron's HTTP 200 rate-limit error body for lack-of-resources", async () => {
    node.fail({ mode: 'lack-of-resources' });
    expect(await post(node, '/wallet/getnowblock')).toEqual({
      status: 200,
      json: { Error: 'class java.lang.IllegalAccessException : lack of computing resources' },
    });
  });

  it('fails only the listed paths: exact, prefix, or a bare name covering both twins', async () => {
    node.fail({ mode: '503', count: 'always', paths: ['getnowblock', '/wallet/getaccount'] });
    expect((await post(node, '/wallet/getnowblock')).status).toBe(503);
    expect((await post(node, '/walletsolidity/getnowblock')).status).toBe(503);
    expect((await post(node, '/wallet/getaccount', { address: hexOf(ADDRESSES.alice) })).status).toBe(503);
    expect((await post(node, '/walletsolidity/getaccount', { address: hexOf(ADDRESSES.alice) })).status).toBe(
      200,
    );
    expect((await post(node, '/wallet/getblockbynum', { num: 1 })).status).toBe(200);
    node.clearFailures();
    node.fail({ mode: '503', paths: ['/walletsolidity/*'] });
    expect((await post(node, '/wallet/getnowblock')).status).toBe(200);
    expect((await post(node, '/walletsolidity/getblockbynum', { num: 1 })).status).toBe(503);
  });

  it('never answers in timeout mode, so the client times out; close() still returns at once', async () => {
    node.fail({ mode: 'timeout' });
    const abort = AbortSignal.timeout(100);
    await expect(fetch(`${node.url}/wallet/getnowblock`, { signal: abort })).rejects.toThrow();
    node.fail({ mode: 'timeout' });
    const hanging = fetch(`${node.url}/wallet/getnowblock`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await node.close();
    expect(Date.now() - started).toBeLessThan(500);
    expect(await hanging).toBeInstanceOf(Error);
    node = await startTestNode();
  });

  it('times out a tronweb call (axios timeout) and lets the next one through', async () => {
    const tronWeb = tronwebFor(node);
    tronWeb.setFullNode(new providers.HttpProvider(node.url, 100));
    node.fail({ mode: 'timeout' });
    await expect(tronWeb.trx.getCurrentBlock()).rejects.toThrow(/timeout/i);
    expect((await tronWeb.trx.getCurrentBlock()).block_header.raw_data.number).toBe(node.head());
  });

  it('with afterProcessing, takes the broadcast into the pool but loses the answer', async () => {
    node.fail({ mode: '503', paths: ['broadcasttransaction'], afterProcessing: true });
    await expect(sendTrx(node, 'alice', ADDRESSES.bob, 1_000_000)).rejects.toThrow(/503/);
    expect(node.state().pending).toBe(1);
    node.mine();
    expect(node.trxBalance(ADDRESSES.bob)).toBe(11_000_000n);
  });

  it('refuses an unknown mode or count', () => {
    expect(() => node.fail({ mode: 'explode' as never })).toThrow(/unknown fail mode/);
    expect(() => node.fail({ mode: '503', count: 0 })).toThrow(/count/);
  });
});

describe('/_fake control API', () => {
  let node: FakeTronNode;

  beforeEach(async () => {
    node = await startTestNode();
  });

  afterEach(async () => {
    await node.close();
  });

  it('mines, forks and reports state over HTTP', async () => {
    const { json: mined } = await post(node, '/_fake/mine', { n: 3 });
    expect(mined).toMatchObject({ head: 23, solid: 4 });
    const { json: state } = await post(node, '/_fake/state');
    expect(state.headBlockId.slice(0, 16)).toBe((23).toString(16).padStart(16, '0'));
    const { json: forked } = await post(node, '/_fake/fork', { n: 2 });
    expect(forked).toMatchObject({ dropped: [], state: { head: 21, solid: 4 } });
    const tooDeep = await post(node, '/_fake/fork', { n: 50 });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.json.error).toMatch(/cannot fork/);
  });

  it('deploys, mints, funds and reads balances over HTTP with amounts as decimal strings', async () => {
    const { json: deployed } = await post(node, '/_fake/deploy-trc20', {
      symbol: 'BIG',
      name: 'Big',
      decimals: 18,
    });
    expect(deployed.address).toMatch(/^T/);
    expect(deployed.hex).toBe(hexOf(deployed.address));
    const huge = '123456789012345678901234567890';
    expect(
      (
        await post(node, '/_fake/mint-trc20', {
          contract: deployed.address,
          to: ADDRESSES.carol,
          amount: huge,
        })
      ).json,
    ).toEqual({
      ok: true,
    });
    expect((await post(node, '/_fake/set-trx', { address: ADDRESSES.carol, sun: '5000000' })).json).toEqual({
      ok: true,
    });
    const { json: balance } = await post(node, '/_fake/balance', {
      address: ADDRESSES.carol,
      contract: deployed.address,
    });
    expect(balance).toEqual({ address: ADDRESSES.carol, trx: '5000000', token: huge });
    const usdt = await tronwebFor(node).contract().at(deployed.address);
    expect((await usdt.balanceOf(ADDRESSES.carol).call()).toString()).toBe(huge);
    const bad = await post(node, '/_fake/mint-trc20', { contract: USDT, to: ADDRESSES.carol, amount: 1.5 });
    expect(bad.status).toBe(400);
  });

  it('queues and clears failures over HTTP; control endpoints themselves never fail', async () => {
    expect((await post(node, '/_fake/fail', { mode: '503', count: 'always' })).json).toEqual({ ok: true });
    expect((await post(node, '/wallet/getnowblock')).status).toBe(503);
    expect((await post(node, '/_fake/state')).status).toBe(200);
    await post(node, '/_fake/fail', { mode: 'none' });
    expect((await post(node, '/wallet/getnowblock')).status).toBe(200);
    expect((await post(node, '/_fake/fail', { mode: 'nope' })).status).toBe(400);
    expect((await post(node, '/_fake/fail', { mode: '503', paths: 'getnowblock' })).status).toBe(400);
    expect((await post(node, '/_fake/deploy-trc20', { decimals: 6 })).status).toBe(400);
    expect((await post(node, '/wallet/getnowblock')).status).toBe(200);
    expect((await post(node, '/_fake/unknown')).status).toBe(404);
  });
});
