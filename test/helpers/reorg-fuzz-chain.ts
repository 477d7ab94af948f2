import type { Chain } from '../../src/domain/chains.ts';
import type { Harness } from './harness.ts';

/*
 * What the reorg fuzz (reorg-fuzz.ts) drives: a devnet that can mine, pay and reorganise, and the
 * Kassa harness scanning it. reorg-fuzz-evm.ts (anvil) and reorg-fuzz-tron.ts (the fake TRON node)
 * implement it.
 */

/** A chain the fuzz can drive: a devnet, and a Kassa harness scanning it. */
export interface FuzzChain {
  readonly chain: Chain;
  /** Kassa's confirmation count on this chain. */
  readonly confirmations: number;
  /** Two configured tokens with their decimals: orders are in either, payments in the other are wrong-token. */
  readonly tokens: readonly [FuzzToken, FuzzToken];
  readonly h: Harness;
  head(): Promise<number>;
  /** Epoch ms of the head block. */
  headTime(): Promise<number>;
  /** The deepest reorganisation the chain itself allows now (TRON: blocks above the solidified one). */
  reorgLimit(): Promise<number>;
  /** The customer sends a transfer; it waits in the mempool until `mine`. Resolves with its txid. */
  pay(symbol: string, to: string, amountBase: bigint): Promise<string>;
  mine(blocks: number): Promise<void>;
  /**
   * Replaces the last `depth` blocks with new ones: the transactions in them for which `keep` is true
   * are mined again in random new blocks (as far as the chain can: an EVM account's later nonces
   * cannot land without its earlier ones), the others vanish for good.
   */
  reorg(depth: number, keep: (txid: string) => boolean, random: () => number): Promise<void>;
  /** Where a transaction is on the canonical chain now and whether it succeeded, or null. */
  locate(txid: string): Promise<{ blockNum: number; blockHash: string; success: boolean } | null>;
  /** Mines blocks until the head is stamped at or after `atMs`. */
  mineUntil(atMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface FuzzToken {
  symbol: string;
  decimals: number;
}
