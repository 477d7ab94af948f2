import { sql } from 'drizzle-orm';
import type { PgTx } from '../client.ts';

// Transaction-scoped advisory locks for the money checks whose rows may not exist yet or that read
// sums over many rows (a merchant's payouts of the day, a hot wallet's open payouts, a merchant's
// newest adjustment): a row lock cannot cover them, so the check takes a lock named after what it
// reads, then reads. Under READ COMMITTED every statement after the lock sees what the previous
// holder committed. The lock ends with the transaction (commit or rollback). The names are hashed
// to 64 bits; a collision only makes two unrelated writers wait for each other.
//
// Order, so that two writers never wait for each other in a circle: a merchant's lock, then a
// balance row (FOR UPDATE), then a chain's lock. Nothing waits for a lock while holding one that
// comes later in that order.

async function lockName(tx: PgTx, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}

/**
 * Serialises, until the transaction ends, the writes that check one merchant's money: payout
 * acceptance (its orderId, its daily total) and operator adjustments.
 */
export function lockMerchantMoney(tx: PgTx, merchantId: string): Promise<void> {
  return lockName(tx, `kassa.money.merchant:${merchantId}`);
}

/**
 * Serialises, until the transaction ends, payout acceptances that check a chain's hot wallet against
 * the payouts it has already promised (every merchant's).
 */
export function lockChainPayouts(tx: PgTx, chain: string): Promise<void> {
  return lockName(tx, `kassa.money.hot-wallet:${chain}`);
}
