import { lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { prepared } from '../prepared.ts';
import { requestNonces } from '../schema/request-nonces.ts';

/** Records a nonce; false when the merchant already used it (a replay). */
export function consumeNonce(db: Db, merchantId: string, nonce: string, expiresAt: number): boolean {
  const insert = prepared(db, 'nonces.insert', () =>
    db
      .insert(requestNonces)
      .values({
        merchantId: sql.placeholder('merchantId'),
        nonce: sql.placeholder('nonce'),
        expiresAt: sql.placeholder('expiresAt'),
      } as never)
      .onConflictDoNothing()
      .prepare(),
  );
  return insert.run({ merchantId, nonce, expiresAt }).changes === 1;
}

/** Forgets nonces whose timestamp window has passed; they can no longer be replayed anyway. */
export function pruneNonces(db: Db, now: number): number {
  return db.delete(requestNonces).where(lt(requestNonces.expiresAt, now)).run().changes;
}
