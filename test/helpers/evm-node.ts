import type { Address } from 'viem';
import { createEvmAdapter, type EvmAdapter } from '../../src/chains/evm/adapter.ts';
import type { EvmOptions } from '../../src/chains/evm/context.ts';
import type { TokenSpec } from '../../src/chains/port.ts';
import { type ActiveChain, activeChain } from '../../src/config/active-chain.ts';
import { loadConfig } from '../../src/config/load.ts';
import { type EvmDevnet, startEvmDevnet } from '../../src/devnet/evm/devnet.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { customer, devnetChainConfig } from './evm-chain.ts';
import { TEST_MNEMONIC } from './harness.ts';

/** Kassa's ETH hot wallet under the test mnemonic, with its key. */
export const hot = createKeyRing(TEST_MNEMONIC).hotWallet('ETH');
export { customer };

/** An anvil for ETH with its test tokens, the hot wallet and the customer funded. */
export function ethDevnet(options: { noMining?: boolean } = {}): Promise<EvmDevnet> {
  return startEvmDevnet({
    chains: ['ETH'],
    fund: { accounts: [hot.address as Address, customer.address], tokens: 1_000_000n },
    ...(options.noMining ? { noMining: true } : {}),
  });
}

/** ETH's tokens on the devnet, as the adapter takes them. */
export function ethTokens(devnet: EvmDevnet): { usdt: TokenSpec; usdc: TokenSpec; eth: TokenSpec } {
  const c = devnet.get('ETH');
  return {
    usdt: { symbol: 'USDT', contract: c.tokens.USDT.address, decimals: c.tokens.USDT.decimals },
    usdc: { symbol: 'USDC', contract: c.tokens.USDC.address, decimals: c.tokens.USDC.decimals },
    eth: { symbol: 'ETH', contract: null, decimals: 18 },
  };
}

/** An EVM adapter for ETH on the devnet (or on `rpc`), its settings changed by `over`. */
export async function ethAdapterOn(
  devnet: EvmDevnet,
  over: Partial<ActiveChain> & { rpc?: string[] } = {},
  options: EvmOptions = {},
): Promise<EvmAdapter> {
  const config = await loadConfig({
    env: {},
    overrides: devnetChainConfig(devnet, over.rpc ? { rpc: () => over.rpc as string[] } : {}),
  });
  return createEvmAdapter({ ...activeChain(config, 'ETH'), ...over }, silentLogger(), options);
}
