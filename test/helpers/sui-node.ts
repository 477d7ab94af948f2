import type { TokenSpec } from '../../src/chains/port.ts';
import { createSuiAdapter } from '../../src/chains/sui/adapter.ts';
import type { SuiOptions } from '../../src/chains/sui/context.ts';
import type { ActiveChain } from '../../src/config/active-chain.ts';
import type { FakeSuiNode } from '../../src/devnet/sui/index.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { TEST_MNEMONIC } from './harness.ts';

/** What the SUI action tests share: the hot wallet's key, a receiver, the native token. */
export const hot = createKeyRing(TEST_MNEMONIC).hotWallet('SUI');
export const receiver = `0x${'22'.repeat(32)}`;
export const sui: TokenSpec = { symbol: 'SUI', contract: null, decimals: 9 };

/** The fake node's test USDC as a token. */
export const usdcOn = (node: FakeSuiNode): TokenSpec => ({
  symbol: 'USDC',
  contract: node.usdcType,
  decimals: 6,
});

/** SUI settings pointing at `node` (USDC and SUI, finalized), with `over` merged in. */
export function suiSettingsOn(node: FakeSuiNode, over: Partial<ActiveChain> = {}): ActiveChain {
  return {
    chain: 'SUI',
    enabled: true,
    rpc: [node.url],
    chainId: undefined,
    tokens: [
      { symbol: 'USDC', contract: node.usdcType, decimals: 6 },
      { symbol: 'SUI', contract: null, decimals: 9 },
    ],
    explorerTx: '',
    confirmations: 'finalized',
    confirmationFloor: 0,
    pollIntervalMs: 100,
    maxLogRange: 2000,
    eip1559: false,
    ...over,
  };
}

/** A SUI adapter on `node`. */
export const suiAdapterOn = (node: FakeSuiNode, over: Partial<ActiveChain> = {}, options: SuiOptions = {}) =>
  createSuiAdapter(suiSettingsOn(node, over), silentLogger(), options);
