import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiAdapterOn } from '../../../../test/helpers/sui-node.ts';
import type { ActiveChain } from '../../../config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../../devnet/sui/index.ts';
import { SCAN_STEP } from './scan.ts';

let node: FakeSuiNode;
beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
});
afterAll(() => node?.close());
const adapter = (over: Partial<ActiveChain> = {}) => suiAdapterOn(node, over);

describe('SUI block', () => {
  it('reads a checkpoint as a block (sequence number, digest, unix seconds) and null past the head', async () => {
    const sealed = node.checkpoint();
    const block = await adapter().block(Number(sealed.sequenceNumber));
    expect(block).toEqual({
      number: Number(sealed.sequenceNumber),
      hash: sealed.digest,
      timestamp: expect.any(Number),
    });
    expect(Math.abs(block!.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(await adapter().block(Number(node.height()) + 5)).toBeNull();
    expect(adapter().scanStep()).toBe(SCAN_STEP);
  });
});
