import type { Chain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import { formatAmount } from '../domain/money.ts';
import type { PayoutFunding, TokenRef } from '../services/payout-funding.ts';
import type { ChainAdapter } from './port.ts';

/**
 * Answers createPayout's funding question from the chain: the hot wallet's token balance minus the
 * payouts already queued must cover the amount, and its native coin must cover the fees of every
 * queued payout plus this one (and the amounts themselves for native payouts). An unreachable chain
 * is a 503, never a guess.
 */
export function adapterFunding(
  adapters: ReadonlyMap<Chain, ChainAdapter>,
  nativeOf: (chain: Chain) => TokenRef | null,
): PayoutFunding {
  return {
    async canFund({ token, from, to, amountBase, queuedBase, queuedCount }) {
      const adapter = adapters.get(token.chain);
      const native = nativeOf(token.chain);
      if (!adapter || !native) throw new AppError('chain_unavailable', `${token.chain} is not connected.`);
      try {
        const fee = await adapter.payoutFeeEstimate(from, to, token, amountBase);
        const nativeBalance = await adapter.balance(from, native);
        const feesNeeded = fee * BigInt(queuedCount + 1);
        if (token.contract === null) {
          const need = amountBase + queuedBase + feesNeeded;
          if (nativeBalance < need) {
            return {
              ok: false,
              reason: `${from} holds ${formatAmount(nativeBalance, native.decimals)} ${native.symbol}; needs ${formatAmount(need, native.decimals)} with queued payouts and fees`,
            };
          }
          return { ok: true };
        }
        const balance = await adapter.balance(from, token);
        if (balance - queuedBase < amountBase) {
          return {
            ok: false,
            reason: `${from} holds ${formatAmount(balance, token.decimals)} ${token.symbol}; ${formatAmount(queuedBase, token.decimals)} is queued`,
          };
        }
        if (nativeBalance < feesNeeded) {
          return {
            ok: false,
            reason: `${from} holds ${formatAmount(nativeBalance, native.decimals)} ${native.symbol} for fees; needs about ${formatAmount(feesNeeded, native.decimals)}`,
          };
        }
        return { ok: true };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('chain_unavailable', `${token.chain}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
  };
}
