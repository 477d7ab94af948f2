/**
 * A fake Sui full node for tests and the sandbox: `sui.rpc.v2` over gRPC-Web on 127.0.0.1, served to
 * the unmodified `SuiGrpcClient` of @mysten/sui 1.45 with the SDK's own protobuf and BCS codecs.
 *
 *   const node = await startFakeSuiNode({ manualCheckpoints: true });
 *   const client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
 *   await node.mint(node.usdcType, address, 25_000_000n);
 *   node.checkpoint();
 *   await node.close();
 */
import { FakeSuiChain } from './chain.ts';
import { SUI_TYPE } from './coin-types.ts';
import { executionService } from './execution-service.ts';
import { FailureInjector, type FailureRule } from './failures.ts';
import { Faucet, type MintOptions, type MintResult } from './faucet.ts';
import { ledgerService } from './ledger-service.ts';
import { createFakeSuiServer } from './server.ts';
import type { ServiceImplementation } from './service.ts';
import { stateService } from './state-service.ts';
import { subscriptionService } from './subscription-service.ts';

export { SUI_TYPE } from './coin-types.ts';
export type { FailureRule } from './failures.ts';
export type { MintOptions, MintResult } from './faucet.ts';

/** Options of startFakeSuiNode; every field is optional. */
export interface FakeSuiNodeOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Interval between checkpoints, default 250 ms. */
  checkpointIntervalMs?: number;
  /** No timer: checkpoints are sealed only by `checkpoint()` (or POST /_fake/checkpoint). */
  manualCheckpoints?: boolean;
  /** Seed of everything deterministic: chain id, USDC package id, faucet key. Default `kassa`. */
  seed?: string;
  /** Reference gas price in MIST, default 1000. */
  referenceGasPrice?: bigint;
  /** SUI held by the faucet at genesis, in MIST; default 10^18 (a billion SUI). */
  faucetSui?: bigint;
  /** Called with errors the node answered as INTERNAL (bugs of the fake); default: ignored. */
  onInternalError?: (error: unknown) => void;
}

/** A sealed checkpoint as the controls report it. */
export interface CheckpointInfo {
  sequenceNumber: bigint;
  digest: string;
  /** Digests of the transactions it contains, in order. */
  transactions: string[];
}

/** Balances of one owner in one coin type, decimal strings of base units. */
export interface StateBalance {
  coins: string;
  addressBalance: string;
  total: string;
}

/** A JSON-friendly snapshot (GET /_fake/state returns the same). */
export interface FakeSuiState {
  chainId: string;
  url: string;
  suiType: string;
  usdcType: string;
  faucetAddress: string;
  epoch: string;
  referenceGasPrice: string;
  height: string;
  transactions: number;
  pendingTransactions: number;
  objects: number;
  failures: FailureRule[];
  balances: Record<string, Record<string, StateBalance>>;
}

/** A running fake node. */
export interface FakeSuiNode {
  /** Base URL for `new SuiGrpcClient({ network: 'localnet', baseUrl: url })`. */
  readonly url: string;
  /** Base58 digest of the genesis checkpoint, as GetServiceInfo reports it. */
  readonly chainId: string;
  /** `<package>::usdc::USDC`, 6 decimals. */
  readonly usdcType: string;
  /** `0x000…0002::sui::SUI`, 9 decimals. */
  readonly suiType: string;
  /** The address that signs mints and SUI funding. */
  readonly faucetAddress: string;
  /** Credits `amount` base units of a coin type (SUI or the test USDC) to `owner` with a faucet transaction. */
  mint(coinType: string, owner: string, amount: bigint, options?: MintOptions): Promise<MintResult>;
  /** Sends `amount` MIST to `owner` as a new coin object. */
  fundSui(owner: string, amount: bigint): Promise<MintResult>;
  /** Seals every executed transaction not yet checkpointed into a new checkpoint (possibly empty). */
  checkpoint(): CheckpointInfo;
  /** The latest checkpoint sequence number. */
  height(): bigint;
  /** Adds a failure rule for later gRPC calls. */
  fail(rule: FailureRule): void;
  /** Removes every failure rule. */
  heal(): void;
  /** A snapshot of the chain. */
  state(): FakeSuiState;
  /** Stops the checkpoint timer, ends streams and closes every socket. */
  close(): Promise<void>;
}

/**
 * Starts a fake Sui node on 127.0.0.1. Checkpoints are sealed every `checkpointIntervalMs` (250 ms)
 * unless `manualCheckpoints`. Rejects if the port cannot be bound.
 */
export async function startFakeSuiNode(options: FakeSuiNodeOptions = {}): Promise<FakeSuiNode> {
  const chain = new FakeSuiChain({
    seed: options.seed ?? 'kassa',
    referenceGasPrice: options.referenceGasPrice ?? 1000n,
    epoch: 0n,
    faucetSui: options.faucetSui ?? 10n ** 18n,
    now: () => BigInt(Date.now()),
  });
  const faucet = new Faucet(chain);
  const failures = new FailureInjector();
  let url = '';

  const checkpoint = (): CheckpointInfo => {
    const record = chain.checkpoint();
    return {
      sequenceNumber: record.sequenceNumber,
      digest: record.digest,
      transactions: record.transactions.map((t) => t.digest),
    };
  };

  const state = (): FakeSuiState => {
    const balances: FakeSuiState['balances'] = {};
    for (const owner of chain.store.owners()) {
      const entries: Record<string, StateBalance> = {};
      for (const [coinType, b] of chain.store.balances(owner)) {
        entries[coinType] = {
          coins: b.coins.toString(),
          addressBalance: b.address.toString(),
          total: (b.coins + b.address).toString(),
        };
      }
      balances[owner] = entries;
    }
    return {
      chainId: chain.chainId,
      url,
      suiType: SUI_TYPE,
      usdcType: chain.usdcType,
      faucetAddress: chain.faucet.address,
      epoch: chain.params.epoch.toString(),
      referenceGasPrice: chain.params.referenceGasPrice.toString(),
      height: chain.height().toString(),
      transactions: chain.ledger.transactionCount,
      pendingTransactions: chain.ledger.pendingCount,
      objects: chain.store.size,
      failures: failures.active(),
      balances,
    };
  };

  const controls = {
    mint: (coinType: string, owner: string, amount: bigint, mintOptions?: MintOptions) =>
      faucet.mint(coinType, owner, amount, mintOptions),
    fundSui: (owner: string, amount: bigint) => faucet.mint(SUI_TYPE, owner, amount),
    checkpoint,
    fail: (rule: FailureRule) => failures.add(rule),
    heal: () => failures.clear(),
    state,
  };

  const services = new Map<string, ServiceImplementation>([
    ['sui.rpc.v2.LedgerService', ledgerService],
    ['sui.rpc.v2.StateService', stateService],
    ['sui.rpc.v2.TransactionExecutionService', executionService],
    ['sui.rpc.v2.SubscriptionService', subscriptionService],
  ]);
  const { server, endStreams } = createFakeSuiServer({
    chain,
    failures,
    controls,
    services,
    onInternalError: options.onInternalError,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fake Sui node has no TCP address');
  url = `http://127.0.0.1:${address.port}`;

  const timer = options.manualCheckpoints
    ? undefined
    : setInterval(() => chain.checkpoint(), options.checkpointIntervalMs ?? 250);
  timer?.unref();

  let closing: Promise<void> | undefined;
  return {
    url,
    chainId: chain.chainId,
    usdcType: chain.usdcType,
    suiType: SUI_TYPE,
    faucetAddress: chain.faucet.address,
    ...controls,
    height: () => chain.height(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        if (timer) clearInterval(timer);
        endStreams();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
