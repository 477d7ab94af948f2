import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiAdapterOn } from '../../../../test/helpers/sui-node.ts';
import type { ActiveChain } from '../../../config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../../devnet/sui/index.ts';

let node: FakeSuiNode;
beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
});
afterAll(() => node?.close());
const adapter = (over: Partial<ActiveChain> = {}) => suiAdapterOn(node, over);

describe('SUI heads', () => {
  it('calls the latest checkpoint final under `finalized`, and head − N + 1 under N confirmations', async () => {
    node.checkpoint();
    const head = Number(node.height());
    expect(await adapter().heads()).toEqual({ head, final: head });
    expect(await adapter({ confirmations: 3 }).heads()).toEqual({ head, final: head - 2 });
  });
});
