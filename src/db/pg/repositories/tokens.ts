import { asc, eq } from 'drizzle-orm';
import type { Network } from '../../../domain/chains.ts';
import type { TokenRecord } from '../../repositories/tokens.ts';
import type { PgExecutor } from '../client.ts';
import { tokens } from '../schema/tokens.ts';

/**
 * Adds a token, or replaces the contract and decimals of the same (network, chain, symbol). One
 * INSERT … ON CONFLICT DO UPDATE on the unique (network, chain, symbol) (a): two operators adding the
 * same token at once leave one row, with the last writer's contract and decimals.
 */
export async function upsertToken(ex: PgExecutor, token: TokenRecord, now: number): Promise<void> {
  await ex
    .insert(tokens)
    .values({ ...token, createdAt: now })
    .onConflictDoUpdate({
      target: [tokens.network, tokens.chain, tokens.symbol],
      set: { contract: token.contract, decimals: token.decimals },
    });
}

/** Operator-added tokens of a network, in the order they were first added. */
export async function listAddedTokens(ex: PgExecutor, network: Network): Promise<TokenRecord[]> {
  return ex
    .select({
      network: tokens.network,
      chain: tokens.chain,
      symbol: tokens.symbol,
      contract: tokens.contract,
      decimals: tokens.decimals,
    })
    .from(tokens)
    .where(eq(tokens.network, network))
    .orderBy(asc(tokens.id));
}
