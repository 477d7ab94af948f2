import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tronGenesis } from '../../../../test/helpers/tron-chain.ts';
import { tronAdapterOn } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON block', () => {
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
});
