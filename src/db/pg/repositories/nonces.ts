import { lt } from 'drizzle-orm';
import type { PgExecutor } from '../client.ts';
import { requestNonces } from '../schema/request-nonces.ts';

/**
 * Records a nonce; false when the merchant already used it (a replay). One statement (a): the
 * primary key (merchant, nonce) decides, so of several API processes taking the same nonce at once
 * exactly one inserts the row and the others see no row written. Never a read before the insert.
 */
export async function consumeNonce(
  ex: PgExecutor,
  merchantId: string,
  nonce: string,
  expiresAt: number,
): Promise<boolean> {
  const result = await ex
    .insert(requestNonces)
    .values({ merchantId, nonce, expiresAt })
    .onConflictDoNothing({ target: [requestNonces.merchantId, requestNonces.nonce] });
  return result.rowCount === 1;
}

/** Forgets nonces whose timestamp window has passed; they can no longer be replayed anyway. One DELETE (a). */
export async function pruneNonces(ex: PgExecutor, now: number): Promise<number> {
  const result = await ex.delete(requestNonces).where(lt(requestNonces.expiresAt, now));
  return result.rowCount ?? 0;
}
