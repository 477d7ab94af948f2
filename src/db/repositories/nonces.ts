import { lt } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { requestNonces } from '../schema/request-nonces.ts';

/** Records a nonce; false when the merchant already used it (a replay). */
export function consumeNonce(db: Db, merchantId: string, nonce: string, expiresAt: number): boolean {
  const result = db
    .insert(requestNonces)
    .values({ merchantId, nonce, expiresAt })
    .onConflictDoNothing()
    .run();
  return result.changes === 1;
}

/** Forgets nonces whose timestamp window has passed; they can no longer be replayed anyway. */
export function pruneNonces(db: Db, now: number): number {
  return db.delete(requestNonces).where(lt(requestNonces.expiresAt, now)).run().changes;
}
