import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiAdapter } from '../../src/chains/sui/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { deepMerge } from '../../src/config/load.ts';
import { type FakeSuiNode, type FakeSuiNodeOptions, startFakeSuiNode } from '../../src/devnet/sui/index.ts';
import { coinRefs, fundedAccount, newTransaction, ownedInput } from '../../src/devnet/sui/testing.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { pollPayouts } from '../../src/services/poll-payouts.ts';
import { type Harness, makeHarness, TEST_MNEMONIC } from './harness.ts';
import { onePoll, type Polled } from './poll.ts';

export const SUI = 1_000_000_000n;
export const USDC = 1_000_000n;

/** The hot wallet Kassa derives for SUI from the test mnemonic, with its signing key. */
export function suiHotWallet(): { address: string; keypair: Ed25519Keypair } {
  const hot = createKeyRing(TEST_MNEMONIC).hotWallet('SUI');
  return { address: hot.address, keypair: Ed25519Keypair.fromSecretKey(new Uint8Array(hot.privateKey)) };
}

/** Kassa config with only SUI enabled, pointed at a fake node, its test USDC as the USDC token. */
export function suiChainConfig(
  node: Pick<FakeSuiNode, 'url' | 'usdcType'>,
  options: { confirmations?: number | 'finalized'; pollIntervalMs?: number; rpc?: string[] } = {},
): Record<string, unknown> {
  const chains: Record<string, unknown> = {};
  for (const chain of CHAINS) chains[chain] = { enabled: false };
  chains.SUI = {
    enabled: true,
    confirmations: options.confirmations ?? 'finalized',
    confirmationFloor: 0,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    testnet: {
      rpc: options.rpc ?? [node.url],
      tokens: [
        { symbol: 'USDC', contract: node.usdcType, decimals: 6 },
        { symbol: 'SUI', contract: null, decimals: 9 },
      ],
    },
  };
  return { network: 'testnet', chains, worker: { expireIntervalMs: 100, payoutIntervalMs: 100 } };
}

export interface SuiWorld {
  node: FakeSuiNode;
  client: SuiGrpcClient;
  h: Harness;
  hot: string;
  hotKey: Ed25519Keypair;
  customer: string;
  customerKey: Ed25519Keypair;
  /** The registry's adapter (what `kassa worker` would use). */
  adapter: SuiAdapter;
  /**
   * The customer pays `amount` base units of USDC or SUI to `to` in one transaction, sealed in a new
   * checkpoint unless `seal` is false. `asAddressBalance` sends with `send_funds` (no coin object;
   * the faucet pays it). Resolves with the digest.
   */
  pay(
    symbol: 'USDC' | 'SUI',
    to: string,
    amount: bigint,
    options?: { seal?: boolean; asAddressBalance?: boolean },
  ): Promise<string>;
  /** Seals a checkpoint. */
  seal(): void;
  /** Balance (coins + address balance) of an owner in a coin type. */
  balanceOf(owner: string, coinType: string): Promise<bigint>;
  /** One poll: the worker's scan tick (services/poll-chain.ts), payouts followed. */
  scan(): Promise<Polled>;
  /** One payout tick with `adapter` (default: the registry's), then one poll with it to follow them. */
  payouts(adapter?: SuiAdapter): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fake Sui node (manual checkpoints unless asked otherwise), a funded customer, a funded hot
 * wallet (SUI and USDC in several coins, so payouts merge), and a Kassa harness configured to scan
 * it with the clock at the real time (checkpoints carry real timestamps).
 */
export async function suiWorld(
  options: {
    node?: FakeSuiNodeOptions;
    confirmations?: number | 'finalized';
    hotSui?: bigint;
    hotUsdcCoins?: bigint[];
    overrides?: Record<string, unknown>;
  } = {},
): Promise<SuiWorld> {
  const node = await startFakeSuiNode({ manualCheckpoints: true, ...options.node });
  const client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
  const { address: hot, keypair: hotKey } = suiHotWallet();
  const { keypair: customerKey, address: customer } = await fundedAccount(node, {
    sui: 1_000n * SUI,
    usdc: 1_000_000n * USDC,
  });
  if ((options.hotSui ?? 10n * SUI) > 0n) await node.fundSui(hot, options.hotSui ?? 10n * SUI);
  for (const amount of options.hotUsdcCoins ?? [400n * USDC, 300n * USDC, 300n * USDC])
    await node.mint(node.usdcType, hot, amount);
  node.checkpoint();
  const h = await makeHarness(
    deepMerge(
      suiChainConfig(node, { confirmations: options.confirmations }),
      options.overrides ?? {},
    ) as Record<string, unknown>,
    { clockStart: Date.now(), chains: true },
  );
  const adapter = h.rt.adapters.get('SUI') as SuiAdapter | undefined;
  if (adapter?.family !== 'sui') throw new Error('the registry built no SUI adapter for SUI');

  let paying = Promise.resolve();
  const customerPays = async (symbol: 'USDC' | 'SUI', to: string, amount: bigint) => {
    const { tx } = await newTransaction(client, customer);
    let coin: ReturnType<typeof tx.splitCoins>[number];
    if (symbol === 'SUI') {
      [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(amount)]);
    } else {
      const [usdc] = await coinRefs(client, customer, node.usdcType);
      if (!usdc) throw new Error('the customer has no USDC');
      [coin] = tx.splitCoins(ownedInput(tx, usdc), [tx.pure.u64(amount)]);
    }
    tx.transferObjects([coin!], tx.pure.address(to));
    const bytes = await tx.build();
    const { signature } = await customerKey.signTransaction(bytes);
    const { transaction } = await client.core.executeTransaction({
      transaction: bytes,
      signatures: [signature],
    });
    return transaction.digest;
  };

  return {
    node,
    client,
    h,
    hot,
    hotKey,
    customer,
    customerKey,
    adapter,
    async pay(symbol, to, amount, payOptions = {}) {
      const run = paying.then(async () => {
        const digest = payOptions.asAddressBalance
          ? (
              await node.mint(symbol === 'SUI' ? node.suiType : node.usdcType, to, amount, {
                asAddressBalance: true,
              })
            ).digest
          : await customerPays(symbol, to, amount);
        if (payOptions.seal !== false) node.checkpoint();
        return digest;
      });
      paying = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    seal() {
      node.checkpoint();
    },
    async balanceOf(owner, coinType) {
      return BigInt((await client.core.getBalance({ address: owner, coinType })).balance.balance);
    },
    scan: () => onePoll(h.rt, adapter),
    async payouts(other = adapter) {
      await pollPayouts(h.rt, other, new AbortController().signal);
      await onePoll(h.rt, other);
    },
    async close() {
      await h.close();
      await node.close();
    },
  };
}

/** A SUI adapter on the harness settings, e.g. one with a policy changed for a test. */
export function suiAdapterFor<T extends SuiAdapter>(
  world: Pick<SuiWorld, 'h'>,
  make: (settings: ReturnType<typeof activeChain>, logger: ReturnType<typeof silentLogger>) => T,
): T {
  return make(activeChain(world.h.rt.config, 'SUI'), silentLogger());
}
