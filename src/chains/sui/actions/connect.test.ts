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

describe('SUI connect', () => {
  it('accepts a node that knows every configured coin type with its decimals', async () => {
    await expect(adapter().connect()).resolves.toBeUndefined();
  });

  it('refuses (ChainError wrong_network) a node that does not know the configured USDC: another network', async () => {
    const mainnetUsdc = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
    const a = adapter({ tokens: [{ symbol: 'USDC', contract: mainnetUsdc, decimals: 6 }] });
    await expect(a.connect()).rejects.toMatchObject({ name: 'ChainError', code: 'wrong_network' });
    await expect(a.connect()).rejects.toThrow(/does not know the coin type/);
  });

  it('refuses a coin type whose decimals differ from the configuration', async () => {
    const a = adapter({ tokens: [{ symbol: 'USDC', contract: node.usdcType, decimals: 9 }] });
    await expect(a.connect()).rejects.toThrow(/has 6 decimals on the RPC/);
  });
});
