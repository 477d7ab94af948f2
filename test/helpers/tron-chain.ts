import { TronWeb } from 'tronweb';
import { deepMerge } from '../../src/config/load.ts';
import { type FakeTronNode, type Genesis, startFakeTronNode } from '../../src/devnet/tron/index.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { pollPayouts } from '../../src/services/poll-payouts.ts';
import { type Harness, makeHarness, TEST_MNEMONIC } from './harness.ts';
import { onePoll, type Polled } from './poll.ts';

/** Mainnet USDT's address, pinned on the fake node; the token returns false from transfer like the real one. */
export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** The customer who pays collections (a fixed key, never one of Kassa's). */
export const CUSTOMER_KEY = '4444444444444444444444444444444444444444444444444444444444444444';
export const CUSTOMER = TronWeb.address.fromPrivateKey(CUSTOMER_KEY) as string;
/** Kassa's TRON hot wallet under the test mnemonic (m/44'/195'/1'/0/0). */
export const HOT = createKeyRing(TEST_MNEMONIC).hotWallet('TRON').address;

export const SUN = 1_000_000n;

/** The genesis of a test world: USDT (6 decimals, returns false), the hot wallet and the customer funded. */
export function tronGenesis(
  options: { hotTrx?: bigint; hotUsdt?: bigint; hotStakedEnergy?: number; hotFrozenEnergySun?: bigint } = {},
): Genesis {
  return {
    tokens: [{ symbol: 'USDT', name: 'Tether USD', decimals: 6, returnsFalse: true, address: USDT }],
    accounts: [
      {
        address: HOT,
        trx: options.hotTrx ?? 1_000n * SUN,
        tokens: { USDT: options.hotUsdt ?? 1_000_000n * SUN },
        ...(options.hotStakedEnergy ? { stakedEnergy: options.hotStakedEnergy } : {}),
        ...(options.hotFrozenEnergySun ? { frozenEnergySun: options.hotFrozenEnergySun } : {}),
      },
      { address: CUSTOMER, trx: 100_000n * SUN, tokens: { USDT: 10_000_000n * SUN } },
    ],
  };
}

/** Kassa config with only TRON enabled, on "testnet" settings pointing at `rpc`. */
export function tronChainConfig(
  rpc: string[],
  options: { confirmations?: number | 'finalized'; pollIntervalMs?: number; maxLogRange?: number } = {},
): Record<string, unknown> {
  const chains: Record<string, unknown> = {};
  for (const chain of CHAINS) chains[chain] = { enabled: false };
  chains.TRON = {
    enabled: true,
    confirmations: options.confirmations ?? 'finalized',
    confirmationFloor: 0,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    ...(options.maxLogRange ? { maxLogRange: options.maxLogRange } : {}),
    testnet: {
      rpc,
      tokens: [
        { symbol: 'USDT', contract: USDT, decimals: 6 },
        { symbol: 'TRX', contract: null, decimals: 6 },
      ],
    },
  };
  return { network: 'testnet', chains, worker: { expireIntervalMs: 100, payoutIntervalMs: 100 } };
}

/** An unsigned transfer of `amount` base units of USDT or TRX from `from` to `to`, built by the node. */
export async function unsignedPayment(
  tronWeb: TronWeb,
  symbol: 'USDT' | 'TRX',
  from: string,
  to: string,
  amount: bigint,
) {
  if (symbol === 'TRX') return tronWeb.transactionBuilder.sendTrx(to, Number(amount), from);
  const built = await tronWeb.transactionBuilder.triggerSmartContract(
    USDT,
    'transfer(address,uint256)',
    { feeLimit: 50_000_000 },
    [
      { type: 'address', value: to },
      { type: 'uint256', value: amount.toString() },
    ],
    from,
  );
  return built.transaction;
}

export interface TronWorld {
  node: FakeTronNode;
  h: Harness;
  /** The customer pays `amount` base units of USDT or TRX to `to`; mines one block unless told not to. Returns the txid. */
  pay(
    symbol: 'USDT' | 'TRX',
    to: string,
    amount: bigint,
    options?: { mine?: boolean; key?: string },
  ): Promise<string>;
  /** Mines `n` blocks (3 s of chain time each). */
  mine(n?: number): void;
  /** Mines enough blocks for everything mined so far to be solidified. */
  solidify(): void;
  /** One poll: the worker's scan tick (services/poll-chain.ts), payouts followed. */
  scan(): Promise<Polled>;
  /** One payout tick (services/poll-payouts.ts: send queued payouts), then one poll to follow them. */
  payouts(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fake TRON node in manual mode (blocks only when the test mines) and a Kassa harness scanning
 * it, its clock at the node's head time.
 */
export async function tronWorld(
  options: {
    confirmations?: number | 'finalized';
    solidLag?: number;
    genesis?: Genesis;
    overrides?: Record<string, unknown>;
    /** blocks per scan step (the chain's maxLogRange) */
    maxLogRange?: number;
    /** the RPC URLs Kassa is given for the node's URL (default: just it) */
    rpc?: (url: string) => string[];
  } = {},
): Promise<TronWorld> {
  const solidLag = options.solidLag ?? 19;
  const node = await startFakeTronNode({
    blockIntervalMs: 0,
    solidLag,
    genesis: options.genesis ?? tronGenesis(),
  });
  const h = await makeHarness(
    deepMerge(
      tronChainConfig(options.rpc ? options.rpc(node.url) : [node.url], {
        confirmations: options.confirmations,
        maxLogRange: options.maxLogRange,
      }),
      options.overrides ?? {},
    ) as Record<string, unknown>,
    { clockStart: node.state().headTimestamp, chains: true },
  );
  const adapter = () => {
    const a = h.rt.adapters.get('TRON');
    if (!a) throw new Error('TRON has no adapter');
    return a;
  };
  await adapter().connect();
  return {
    node,
    h,
    async pay(symbol, to, amount, payOptions = {}) {
      const key = payOptions.key ?? CUSTOMER_KEY;
      const tronWeb = new TronWeb({ fullHost: node.url, privateKey: key });
      const from = TronWeb.address.fromPrivateKey(key) as string;
      const unsigned = await unsignedPayment(tronWeb, symbol, from, to, amount);
      const signed = await tronWeb.trx.sign(unsigned, key);
      const sent = await tronWeb.trx.sendRawTransaction(signed);
      if (sent.result !== true) throw new Error(`payment refused: ${JSON.stringify(sent)}`);
      if (payOptions.mine ?? true) node.mine(1);
      return signed.txID;
    },
    mine(n = 1) {
      node.mine(n);
    },
    solidify() {
      node.mine(solidLag + 1);
    },
    scan: () => onePoll(h.rt, adapter()),
    async payouts() {
      await pollPayouts(h.rt, adapter(), new AbortController().signal);
      await onePoll(h.rt, adapter());
    },
    async close() {
      await h.close();
      await node.close();
    },
  };
}
