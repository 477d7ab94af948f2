import type { Chain } from '../domain/chains.ts';

/** A token as the registry knows it. */
export interface TokenRef {
  chain: Chain;
  symbol: string;
  /** Contract address or coin type; null for the native coin. */
  contract: string | null;
  decimals: number;
}

/**
 * Answers whether a chain's hot wallet can pay `amountBase` of a token on top of the payouts already
 * queued (`queuedBase`). Implemented over the chain adapters by the worker side (chains/registry).
 */
export interface PayoutFunding {
  canFund(input: {
    token: TokenRef;
    from: string;
    /** The payout's destination (sending to an account that does not exist yet can cost more). */
    to: string;
    amountBase: bigint;
    queuedBase: bigint;
    queuedCount: number;
  }): Promise<{ ok: true } | { ok: false; reason: string }>;
}
