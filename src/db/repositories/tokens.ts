import { asc, eq, sql } from 'drizzle-orm';
import type { Network } from '../../domain/chains.ts';
import type { Db } from '../client.ts';
import { prepared } from '../prepared.ts';
import { tokens } from '../schema/tokens.ts';

export interface TokenRecord {
  network: Network;
  chain: string;
  symbol: string;
  contract: string | null;
  decimals: number;
}

/** Adds a token, or replaces the contract and decimals of the same (network, chain, symbol). */
export function upsertToken(db: Db, token: TokenRecord, now: number): void {
  db.insert(tokens)
    .values({ ...token, createdAt: now })
    .onConflictDoUpdate({
      target: [tokens.network, tokens.chain, tokens.symbol],
      set: { contract: token.contract, decimals: token.decimals },
    })
    .run();
}

/** Operator-added tokens of a network. */
export function listAddedTokens(db: Db, network: Network): TokenRecord[] {
  return prepared(db, 'tokens.list', () =>
    db
      .select({
        network: tokens.network,
        chain: tokens.chain,
        symbol: tokens.symbol,
        contract: tokens.contract,
        decimals: tokens.decimals,
      })
      .from(tokens)
      .where(eq(tokens.network, sql.placeholder('network')))
      .orderBy(asc(tokens.id))
      .prepare(),
  ).all({ network }) as TokenRecord[];
}
