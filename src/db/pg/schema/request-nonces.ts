import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** Nonces seen within the timestamp window, per merchant; a repeat is a replay. */
export const requestNonces = pgTable(
  'request_nonces',
  {
    merchantId: text('merchant_id').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.nonce] })],
);
