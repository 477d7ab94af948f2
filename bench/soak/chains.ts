import { startSandboxChains } from '../../src/devnet/sandbox.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';

/**
 * The soak's chains, as the sandbox runs them: anvil for ETH (a block mined every second, so its 3
 * confirmations have something to count), the fake TRON node and the fake Sui node; the operator's
 * hot wallets funded.
 */

/** The operator's mnemonic in the soak (a BIP-39 test vector). */
export const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

/** A JSON-RPC call to an EVM node. */
export const rpc = (url: string, method: string, params: unknown[] = []) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then((r) => r.json() as Promise<{ result?: unknown; error?: unknown }>);

/** Starts the chains with their state in `dir`; `stopMining()` ends ETH's block a second. */
export async function startSoakChains(dir: string) {
  const keys = createKeyRing(MNEMONIC);
  const hotWallets: Record<string, string> = {};
  for (const chain of ['ETH', 'TRON', 'SUI'] as const) hotWallets[chain] = keys.hotWallet(chain).address;
  const chains = await startSandboxChains({ dataDir: dir, hotWallets, evm: ['ETH'], tron: true, sui: true });
  const eth = chains.chains.ETH as NonNullable<(typeof chains.chains)['ETH']>;
  const tron = chains.chains.TRON as NonNullable<(typeof chains.chains)['TRON']>;
  const sui = chains.chains.SUI as NonNullable<(typeof chains.chains)['SUI']>;
  // anvil mines a block per transaction; a block a second gives ETH's 3 confirmations something to count
  const miner = setInterval(() => void rpc(eth.rpc, 'evm_mine').catch(() => undefined), 1000);
  /** What is collected: chain, symbol, token contract (or coin type), decimals. */
  const tokens = [
    { chain: 'ETH', symbol: 'USDT', ...(eth.tokens.USDT as { contract: string; decimals: number }) },
    { chain: 'ETH', symbol: 'USDC', ...(eth.tokens.USDC as { contract: string; decimals: number }) },
    { chain: 'TRON', symbol: 'USDT', ...(tron.tokens.USDT as { contract: string; decimals: number }) },
    { chain: 'SUI', symbol: 'USDC', ...(sui.tokens.USDC as { contract: string; decimals: number }) },
  ] as const;
  return { ...chains, eth, tron, sui, tokens, stopMining: () => clearInterval(miner) };
}

export type SoakChains = Awaited<ReturnType<typeof startSoakChains>>;
/** A token the soak collects. */
export type Token = SoakChains['tokens'][number];
