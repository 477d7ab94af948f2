import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT, tronGenesis } from '../../../../test/helpers/tron-chain.ts';
import { hot, other, tronAdapterOn, trx } from '../../../../test/helpers/tron-node.ts';
import { startGate } from '../../../../test/tron/gate.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON heads', () => {
  it('reports the head and, by default, the solidified block as final; N confirmations = head − N + 1', async () => {
    const a = await adapterFor();
    expect(await a.heads()).toEqual({ head: node.head(), final: node.solid() });
    expect(node.head() - node.solid()).toBe(19);
    const b = await adapterFor({ confirmations: 5 });
    expect(await b.heads()).toEqual({ head: node.head(), final: node.head() - 4 });
  });

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
});
