import { createTestClient, defineChain, http, publicActions, walletActions } from 'viem';

export interface DevnetClientOptions {
  /** JSON-RPC URL of the anvil node. */
  url: string;
  /** Chain id the node was started with; viem refuses to sign for another. */
  chainId: number;
  /** How often viem polls for receipts and blocks, in ms. Default 50: anvil mines instantly. */
  pollingInterval?: number;
}

/**
 * Builds one viem client for an anvil devnet with public, wallet and anvil test actions (mine, snapshot,
 * revert, setBalance, impersonateAccount…). It has no default account: pass `account` per call, either a
 * local account or the address of an anvil dev account (anvil signs for those). Throws nothing: it opens
 * no connection until used.
 */
export function createDevnetClient({ url, chainId, pollingInterval = 50 }: DevnetClientOptions) {
  const chain = defineChain({
    id: chainId,
    name: `Kassa devnet ${chainId}`,
    nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  return createTestClient({ mode: 'anvil', chain, transport: http(url, { retryCount: 0 }), pollingInterval })
    .extend(publicActions)
    .extend(walletActions);
}

/** A client made by {@link createDevnetClient}. */
export type DevnetClient = ReturnType<typeof createDevnetClient>;
