import type { ChainAdapter } from '../chains/port.ts';
import type { Chain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import type { PayoutFunding, TokenRef } from './payout-funding.ts';

/**
 * Reads what createPayout's hot-wallet check needs from the chain: the wallet's balance of the
 * token and of the native coin, and the fee of one payout to that receiver. An unreachable chain is
 * a 503, never a guess.
 */
export function adapterFunding(
  adapters: ReadonlyMap<Chain, ChainAdapter>,
  nativeOf: (chain: Chain) => TokenRef | null,
): PayoutFunding {
  return {
    async read({ token, from, to, amountBase }) {
      const adapter = adapters.get(token.chain);
      const native = nativeOf(token.chain);
      if (!adapter || !native) throw new AppError('chain_unavailable', `${token.chain} is not connected.`);
      try {
        const feePerPayout = await adapter.payoutFeeEstimate(from, to, token, amountBase);
        const nativeBalance = await adapter.balance(from, native);
        const tokenBalance = token.contract === null ? nativeBalance : await adapter.balance(from, token);
        return { from, token, native, tokenBalance, nativeBalance, feePerPayout };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('chain_unavailable', `${token.chain}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
  };
}
