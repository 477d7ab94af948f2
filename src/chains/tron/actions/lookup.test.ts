import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT, tronGenesis } from '../../../../test/helpers/tron-chain.ts';
import { hot, other, tronAdapterOn, usdt } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON lookup', () => {
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
});
