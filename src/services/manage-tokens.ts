import { type Chain, familyOf, isChain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import { isEvmAddress, isTronAddress, normaliseAddress } from '../keys/address-format.ts';
import type { Deps } from './deps.ts';
import type { TokenRef } from './payout-funding.ts';
import { forgetTokenCache, listTokens } from './resolve-token.ts';

const SUI_COIN_TYPE = /^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Adds a token on the configured network (or replaces the contract and decimals of the same chain
 * and symbol). Checks the contract's form for the chain: EVM address, TRON address, Sui coin type.
 */
export async function addToken(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  input: { chain: string; symbol: string; contract: string; decimals: number },
): Promise<TokenRef> {
  if (!isChain(input.chain)) throw new AppError('validation', `Unknown chain ${input.chain}.`);
  const chain: Chain = input.chain;
  if (!/^[A-Za-z0-9.]{1,16}$/.test(input.symbol))
    throw new AppError('validation', 'The symbol must be 1–16 letters, digits or dots.');
  if (!Number.isInteger(input.decimals) || input.decimals < 0 || input.decimals > 36) {
    throw new AppError('validation', 'The decimals must be a whole number from 0 to 36.');
  }
  const family = familyOf(chain);
  const ok =
    family === 'evm'
      ? isEvmAddress(input.contract)
      : family === 'tron'
        ? isTronAddress(input.contract)
        : SUI_COIN_TYPE.test(input.contract);
  if (!ok)
    throw new AppError('validation', `The contract ${input.contract} is not a ${chain} token address.`);
  const contract = family === 'sui' ? input.contract : normaliseAddress(chain, input.contract);
  await deps.db.upsertToken(
    { network: deps.config.network, chain, symbol: input.symbol, contract, decimals: input.decimals },
    deps.clock.now(),
  );
  forgetTokenCache(deps);
  return { chain, symbol: input.symbol, contract, decimals: input.decimals };
}

/** The tokens that can be ordered, for `kassa token list` and `supportSymbols`. */
export async function supportedSymbols(
  deps: Pick<Deps, 'db' | 'config'>,
  filter: { chain?: string; symbol?: string } = {},
): Promise<{ symbol: string; chain: string; contractAddress: string | null; decimals: number }[]> {
  const all = await listTokens(deps);
  return all
    .filter((t) => !filter.chain || t.chain === filter.chain.toUpperCase())
    .filter((t) => !filter.symbol || t.symbol.toUpperCase() === filter.symbol.toUpperCase())
    .map((t) => ({ symbol: t.symbol, chain: t.chain, contractAddress: t.contract, decimals: t.decimals }));
}
