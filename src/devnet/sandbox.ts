import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { type EvmDevnet, type EvmDevnetChain, startEvmDevnet } from './evm/devnet.ts';
import { suiAddressOf } from './sui/customer.ts';
import { type FakeSuiNode, startFakeSuiNode } from './sui/index.ts';
import { tronAddressOf } from './tron/customer.ts';
import { startFakeTronNode } from './tron/index.ts';
import type { FakeTronNode } from './tron/server.ts';

/** The devnet keys of the sandbox's customer (they hold test money only). */
export const SANDBOX_CUSTOMER = {
  /** anvil's dev account 1. */
  evm: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  tron: createHash('sha256').update('kassa sandbox tron customer').digest('hex'),
  sui: createHash('sha256').update('kassa sandbox sui customer').digest('hex'),
} as const;
const EVM_CUSTOMER_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** USDT on the sandbox's TRON devnet sits at mainnet USDT's address, so links and docs look familiar. */
const TRON_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** What a sandbox chain looks like from outside: where to reach it and which tokens it has. */
export interface SandboxChain {
  family: 'evm' | 'tron' | 'sui';
  rpc: string;
  chainId?: number;
  /** Contract (or coin type) by symbol; the native coin is listed with `null`. */
  tokens: Record<string, { contract: string | null; decimals: number }>;
}

export interface SandboxChains {
  chains: Record<string, SandboxChain>;
  /** Kassa configuration for these chains (network "testnet"), to merge over the defaults. */
  config: Record<string, unknown>;
  stop(): Promise<void>;
}

/** What `kassa sandbox` writes to `<data>/sandbox.json` for `kassa demo` (devnet-only secrets). */
export interface SandboxInfo {
  apiUrl: string;
  webhookUrl: string;
  merchant: { merchantId: string; token: string; webhookSecret: string };
  chains: Record<string, SandboxChain>;
  customer: typeof SANDBOX_CUSTOMER;
  /** The dashboard at `<admin listener>/admin` and its sandbox user. */
  dashboard?: { url: string; email: string; password: string };
}

/**
 * Starts the sandbox's local chains: one anvil per EVM chain (real chain ids and token decimals,
 * state kept in `dataDir/anvil`), a fake TRON node (1 s blocks, solid 2 blocks behind) and a fake
 * Sui node (checkpoints every 250 ms). Funds `hotWallets` (the operator's payout wallets) and the
 * sandbox customer. The TRON and Sui fakes keep no state across restarts.
 */
export async function startSandboxChains(input: {
  dataDir: string;
  hotWallets: Record<string, string>;
  evm?: EvmDevnetChain[];
  tron?: boolean;
  sui?: boolean;
}): Promise<SandboxChains> {
  const evmChains = input.evm ?? ['ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN'];
  const stops: (() => Promise<void>)[] = [];
  const chains: Record<string, SandboxChain> = {};
  const config: Record<string, Record<string, unknown>> = {};
  const disabled = { enabled: false };
  for (const c of ['TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI']) config[c] = disabled;
  try {
    let devnet: EvmDevnet | null = null;
    if (evmChains.length > 0) {
      devnet = await startEvmDevnet({
        chains: evmChains,
        stateDir: join(input.dataDir, 'anvil'),
        stateInterval: 30,
        fund: {
          accounts: [EVM_CUSTOMER_ADDRESS, ...evmChains.map((c) => input.hotWallets[c] as `0x${string}`)],
          tokens: 1_000_000n,
        },
      });
      stops.push(() => (devnet as EvmDevnet).stop());
      for (const c of devnet.chains) {
        const tokens = {
          USDT: { contract: c.tokens.USDT.address, decimals: c.tokens.USDT.decimals },
          USDC: { contract: c.tokens.USDC.address, decimals: c.tokens.USDC.decimals },
          [c.nativeSymbol]: { contract: null, decimals: 18 },
        };
        chains[c.chain] = { family: 'evm', rpc: c.url, chainId: c.chainId, tokens };
        config[c.chain] = chainConfig(1, { rpc: [c.url], chainId: c.chainId, tokens: tokenList(tokens) });
      }
    }
    if (input.tron ?? true) {
      const hot = input.hotWallets.TRON as string;
      const customer = tronAddressOf(SANDBOX_CUSTOMER.tron);
      const tron: FakeTronNode = await startFakeTronNode({
        blockIntervalMs: 1000,
        solidLag: 2,
        genesis: {
          tokens: [
            { symbol: 'USDT', name: 'Tether USD', decimals: 6, address: TRON_USDT, returnsFalse: true },
          ],
          accounts: [
            { address: hot, trx: 10_000_000_000n, tokens: { USDT: 1_000_000_000_000n } },
            { address: customer, trx: 10_000_000_000n, tokens: { USDT: 1_000_000_000_000n } },
          ],
        },
      });
      stops.push(() => tron.close());
      const tokens = { USDT: { contract: TRON_USDT, decimals: 6 }, TRX: { contract: null, decimals: 6 } };
      chains.TRON = { family: 'tron', rpc: tron.url, tokens };
      config.TRON = chainConfig('finalized', { rpc: [tron.url], tokens: tokenList(tokens) });
    }
    if (input.sui ?? true) {
      const sui: FakeSuiNode = await startFakeSuiNode({ seed: 'kassa-sandbox' });
      stops.push(() => sui.close());
      const hot = input.hotWallets.SUI as string;
      const customer = suiAddressOf(SANDBOX_CUSTOMER.sui);
      for (const owner of [hot, customer]) {
        await sui.fundSui(owner, 1_000n * 10n ** 9n);
        await sui.mint(sui.usdcType, owner, 1_000_000n * 10n ** 6n);
      }
      const tokens = { USDC: { contract: sui.usdcType, decimals: 6 }, SUI: { contract: null, decimals: 9 } };
      chains.SUI = { family: 'sui', rpc: sui.url, tokens };
      config.SUI = chainConfig('finalized', { rpc: [sui.url], tokens: tokenList(tokens) });
    }
  } catch (error) {
    await Promise.allSettled(stops.map((s) => s()));
    throw error;
  }
  return {
    chains,
    config: { network: 'testnet', chains: config },
    async stop() {
      await Promise.allSettled(stops.reverse().map((s) => s()));
    },
  };
}

function tokenList(tokens: Record<string, { contract: string | null; decimals: number }>) {
  return Object.entries(tokens).map(([symbol, t]) => ({ symbol, ...t }));
}

function chainConfig(confirmations: number | 'finalized', testnet: Record<string, unknown>) {
  return {
    enabled: true,
    confirmations,
    confirmationFloor: 0,
    pollIntervalMs: 1000,
    // Paid deposits move to the hot wallet within seconds, so `kassa demo` shows the sweep. A first
    // TRON sweep (activation plus energy, about 2.6 TRX) is 8 % of a 10-dollar order: allowed here.
    sweep: { destination: 'hot', schedule: '*/5 * * * * *', maxFeeRatio: 0.1 },
    testnet: { explorerTx: '', ...testnet },
  };
}
