import type { Address } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { deepMerge } from '../../src/config/load.ts';
import {
  EVM_DEVNET_CHAINS,
  type EvmDevnet,
  type EvmDevnetChain,
  startEvmDevnet,
} from '../../src/devnet/evm/devnet.ts';
import { transferToken } from '../../src/devnet/evm/tokens.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { pollPayouts } from '../../src/services/poll-payouts.ts';
import { type Harness, makeHarness, TEST_MNEMONIC } from './harness.ts';
import { onePoll, type Polled } from './poll.ts';

/** anvil's dev mnemonic: account 0 owns the test tokens, account 1 plays the customer. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
export const customer = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 1 });

/** Kassa config for chains served by a devnet: only those chains enabled, on "testnet" settings. */
export function devnetChainConfig(
  devnet: EvmDevnet,
  options: {
    confirmations?: number | 'finalized';
    pollIntervalMs?: number;
    rpc?: (url: string) => string[];
  } = {},
): Record<string, unknown> {
  const chains: Record<string, unknown> = {};
  for (const chain of CHAINS) chains[chain] = { enabled: false };
  for (const c of devnet.chains) {
    chains[c.chain] = {
      enabled: true,
      confirmations: options.confirmations ?? 3,
      confirmationFloor: 0,
      pollIntervalMs: options.pollIntervalMs ?? 100,
      testnet: {
        rpc: options.rpc ? options.rpc(c.url) : [c.url],
        chainId: c.chainId,
        tokens: [
          { symbol: 'USDT', contract: c.tokens.USDT.address, decimals: c.tokens.USDT.decimals },
          { symbol: 'USDC', contract: c.tokens.USDC.address, decimals: c.tokens.USDC.decimals },
          { symbol: c.nativeSymbol, contract: null, decimals: 18 },
        ],
      },
    };
  }
  return { network: 'testnet', chains, worker: { expireIntervalMs: 100, payoutIntervalMs: 100 } };
}

export interface EvmWorld {
  devnet: EvmDevnet;
  h: Harness;
  hot(chain: EvmDevnetChain): Address;
  /** The customer pays `amount` base units of a token (or native coin) to `to`; resolves with the tx hash. */
  pay(
    chain: EvmDevnetChain,
    symbol: 'USDT' | 'USDC' | 'native',
    to: string,
    amount: bigint,
  ): Promise<`0x${string}`>;
  mine(chain: EvmDevnetChain, blocks: number): Promise<void>;
  /** One poll of a chain: the worker's scan tick (services/poll-chain.ts), payouts followed. */
  scan(chain: EvmDevnetChain): Promise<Polled>;
  /** One payout tick (services/poll-payouts.ts: send queued payouts), then one poll to follow them. */
  payouts(chain: EvmDevnetChain): Promise<void>;
  close(): Promise<void>;
}

/**
 * A devnet with the given EVM chains (real chain ids and decimals; the hot wallets and the customer
 * funded) and a Kassa harness configured to scan them, with a clock at the real time (anvil's
 * blocks carry real timestamps).
 */
export async function evmWorld(
  chains: EvmDevnetChain[],
  options: {
    confirmations?: number | 'finalized';
    slotsInAnEpoch?: number;
    noMining?: boolean;
    overrides?: Record<string, unknown>;
    /** The RPC URLs Kassa is given for a chain's node (default: the node itself), e.g. fault proxies in front of it. */
    rpc?: (chain: EvmDevnetChain, url: string) => string[] | Promise<string[]>;
  } = {},
): Promise<EvmWorld> {
  const keys = createKeyRing(TEST_MNEMONIC);
  const hotWallets = chains.map((c) => keys.hotWallet(c).address as Address);
  const devnet = await startEvmDevnet({
    chains,
    fund: { accounts: [...hotWallets, customer.address], tokens: 1_000_000n },
    ...(options.slotsInAnEpoch ? { slotsInAnEpoch: options.slotsInAnEpoch } : {}),
    ...(options.noMining ? { noMining: true } : {}),
  });
  const urls = new Map<string, string[]>();
  for (const c of devnet.chains) urls.set(c.url, options.rpc ? await options.rpc(c.chain, c.url) : [c.url]);
  const h = await makeHarness(
    deepMerge(
      devnetChainConfig(devnet, {
        confirmations: options.confirmations,
        rpc: (url) => urls.get(url) ?? [url],
      }),
      options.overrides ?? {},
    ) as Record<string, unknown>,
    { clockStart: Date.now(), chains: true },
  );
  const adapter = (chain: EvmDevnetChain) => {
    const a = h.rt.adapters.get(chain);
    if (!a) throw new Error(`${chain} has no adapter`);
    return a;
  };
  return {
    devnet,
    h,
    hot: (chain) => keys.hotWallet(chain).address as Address,
    async pay(chain, symbol, to, amount) {
      const c = devnet.get(chain);
      if (symbol === 'native') {
        const hash = await c.client.sendTransaction({
          account: customer,
          to: to as Address,
          value: amount,
          chain: c.client.chain,
        });
        if (!options.noMining) await c.client.waitForTransactionReceipt({ hash });
        return hash;
      }
      if (options.noMining) {
        const { encodeFunctionData, parseAbi } = await import('viem');
        return c.client.sendTransaction({
          account: customer,
          chain: c.client.chain,
          to: c.tokens[symbol].address,
          data: encodeFunctionData({
            abi: parseAbi(['function transfer(address,uint256)']),
            functionName: 'transfer',
            args: [to as Address, amount],
          }),
        });
      }
      const receipt = await transferToken(c.client, {
        from: customer,
        token: c.tokens[symbol].address,
        to: to as Address,
        amount,
      });
      return receipt.transactionHash;
    },
    async mine(chain, blocks) {
      await devnet.get(chain).client.mine({ blocks });
    },
    scan: (chain) => onePoll(h.rt, adapter(chain)),
    async payouts(chain) {
      await pollPayouts(h.rt, adapter(chain), new AbortController().signal);
      await onePoll(h.rt, adapter(chain));
    },
    async close() {
      await h.close();
      await devnet.stop();
    },
  };
}

/**
 * Spends one of a hot wallet's nonces outside Kassa, as an operator using its key in another
 * wallet would: a 0-value transfer to itself, signed with the key and sent straight to the node
 * (not through any proxy Kassa reads through). Resolves with its hash once it is mined.
 */
export async function spendHotWalletNonce(
  w: EvmWorld,
  chain: EvmDevnetChain,
  nonce: number,
): Promise<`0x${string}`> {
  const c = w.devnet.get(chain);
  const key = w.h.rt.keys?.hotWallet(chain).privateKey;
  if (!key) throw new Error('the harness has no keys');
  const hot = privateKeyToAccount(`0x${key.toString('hex')}`);
  const hash = await c.client.sendTransaction({
    account: hot,
    chain: c.client.chain,
    to: hot.address,
    value: 0n,
    nonce,
  });
  await c.client.waitForTransactionReceipt({ hash });
  return hash;
}

export { EVM_DEVNET_CHAINS };
