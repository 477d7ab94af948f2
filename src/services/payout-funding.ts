import type { Chain } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';

/** A token as the registry knows it. */
export interface TokenRef {
  chain: Chain;
  symbol: string;
  /** Contract address or coin type; null for the native coin. */
  contract: string | null;
  decimals: number;
}

/** What a chain's hot wallet holds, read from the chain just before a payout is decided. */
export interface HotWalletSnapshot {
  from: string;
  token: TokenRef;
  native: TokenRef;
  /** The wallet's balance of the payout's token (the native balance for a native payout). */
  tokenBalance: bigint;
  nativeBalance: bigint;
  /** Native coin one payout of this token to this receiver burns in fees, at most. */
  feePerPayout: bigint;
}

/**
 * Reads a hot wallet's balances and fee estimate from the chain (implemented over the chain
 * adapters, services/chain-funding.ts). An unreachable chain throws `chain_unavailable`, never a guess.
 */
export interface PayoutFunding {
  read(input: { token: TokenRef; from: string; to: string; amountBase: bigint }): Promise<HotWalletSnapshot>;
}

/**
 * Whether the hot wallet can pay `amountBase` on top of what it already promised (`committed`:
 * payouts accepted and not yet reflected in the balance read, of this token and of the native coin,
 * and how many payouts that is on the chain): the token must cover the amounts, the native coin
 * every payout's fee (and the amounts themselves for native payouts). Pure: createPayout runs it
 * inside the write transaction that inserts the payout. Returns the reason for a refusal, or null.
 */
export function hotWalletShortfall(
  wallet: HotWalletSnapshot,
  committed: { tokenBase: bigint; nativeBase: bigint; count: number },
  amountBase: bigint,
): string | null {
  const { native, token, from } = wallet;
  const feesNeeded = wallet.feePerPayout * BigInt(committed.count + 1);
  const n = (v: bigint) => `${formatAmount(v, native.decimals)} ${native.symbol}`;
  if (token.contract === null) {
    const need = amountBase + committed.nativeBase + feesNeeded;
    return wallet.nativeBalance < need
      ? `${from} holds ${n(wallet.nativeBalance)}; needs ${n(need)} with queued payouts and fees`
      : null;
  }
  if (wallet.tokenBalance - committed.tokenBase < amountBase) {
    return `${from} holds ${formatAmount(wallet.tokenBalance, token.decimals)} ${token.symbol}; ${formatAmount(committed.tokenBase, token.decimals)} is queued`;
  }
  if (wallet.nativeBalance - committed.nativeBase < feesNeeded) {
    return `${from} holds ${n(wallet.nativeBalance)} for fees; needs about ${n(feesNeeded)}`;
  }
  return null;
}
