import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Nonces seen within the timestamp window, per merchant; a repeat is a replay. */
export const requestNonces = sqliteTable(
  'request_nonces',
  {
    merchantId: text('merchant_id').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.nonce] })],
);
