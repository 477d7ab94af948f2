import { activeChain } from '../config/active-chain.ts';
import { CHAINS, type Chain } from '../domain/chains.ts';
import type { Deps } from './deps.ts';
import type { TokenRef } from './payout-funding.ts';

/**
 * Every token that can be ordered on the configured network: each enabled chain's defaults from the
 * config, with operator-added tokens (`kassa token add`) replacing a default of the same symbol.
 */
export async function listTokens(deps: Pick<Deps, 'config' | 'db'>): Promise<TokenRef[]> {
  const added = await deps.db.listAddedTokens(deps.config.network);
  const out: TokenRef[] = [];
  for (const chain of CHAINS) {
    const settings = activeChain(deps.config, chain);
    if (!settings.enabled) continue;
    const mine = added.filter((t) => t.chain === chain);
    for (const t of settings.tokens) {
      const override = mine.find((a) => a.symbol.toUpperCase() === t.symbol.toUpperCase());
      out.push(
        override
          ? { chain, symbol: override.symbol, contract: override.contract, decimals: override.decimals }
          : { chain, ...t },
      );
    }
    for (const a of mine) {
      if (!settings.tokens.some((t) => t.symbol.toUpperCase() === a.symbol.toUpperCase())) {
        out.push({ chain, symbol: a.symbol, contract: a.contract, decimals: a.decimals });
      }
    }
  }
  return out;
}

const cache = new WeakMap<object, { at: number; tokens: TokenRef[] }>();
const CACHE_MS = 1000;

/**
 * The token a merchant means by (chain, symbol); symbols match case-insensitively. Null if not
 * offered. The token list is re-read at most once a second (createCollection asks on every call),
 * so a `kassa token add` from another process is seen within a second.
 */
export async function resolveToken(
  deps: Pick<Deps, 'config' | 'db'>,
  chain: Chain,
  symbol: string,
): Promise<TokenRef | null> {
  const now = Date.now();
  let entry = cache.get(deps.db);
  if (!entry || now - entry.at >= CACHE_MS) {
    entry = { at: now, tokens: await listTokens(deps) };
    cache.set(deps.db, entry);
  }
  const upper = symbol.toUpperCase();
  return entry.tokens.find((t) => t.chain === chain && t.symbol.toUpperCase() === upper) ?? null;
}

/** Forgets the cached token list (after this process added a token). */
export function forgetTokenCache(deps: Pick<Deps, 'db'>): void {
  cache.delete(deps.db);
}
