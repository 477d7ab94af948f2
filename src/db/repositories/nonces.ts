import { lt } from 'drizzle-orm';
import { batchedWrite } from '../batched-write.ts';
import type { Db } from '../client.ts';
import { prepared } from '../prepared.ts';
import { requestNonces } from '../schema/request-nonces.ts';

/** Records a nonce (group-committed with the other API writes); false when the merchant already used it (a replay). */
export function consumeNonce(db: Db, merchantId: string, nonce: string, expiresAt: number): Promise<boolean> {
  // Plain SQL: this runs on every signed POST, and drizzle's per-call overhead was twice SQLite's work.
  const insert = prepared(db, 'nonces.insert.raw', () =>
    db.$client.prepare(
      'INSERT INTO request_nonces (merchant_id, nonce, expires_at) VALUES (@merchantId, @nonce, @expiresAt) ON CONFLICT DO NOTHING',
    ),
  );
  return batchedWrite(db, () => insert.run({ merchantId, nonce, expiresAt }).changes === 1);
}

/** Forgets nonces whose timestamp window has passed; they can no longer be replayed anyway. */
export function pruneNonces(db: Db, now: number): number {
  return db.delete(requestNonces).where(lt(requestNonces.expiresAt, now)).run().changes;
}
