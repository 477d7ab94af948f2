import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../../../test/helpers/fault-proxy.ts';
import { spendOfSigned } from '../../../../test/helpers/spends.ts';
import { HOT, tronGenesis } from '../../../../test/helpers/tron-chain.ts';
import { hot, other, tronAdapterOn, trx } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON judgeSlot', () => {
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
});
