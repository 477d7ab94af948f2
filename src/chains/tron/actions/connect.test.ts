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

describe('TRON connect', () => {
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
});
