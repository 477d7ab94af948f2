import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Merchants. Token and webhook secret are sealed with the master key (AES-256-GCM), never stored plain.
 * `compat` = `xpay` also serves the merchant the way XPay Labs' SDKs expect (issue 13,
 * docs/xpay-migration.md); `none` is the interface alone.
 */
export const merchants = sqliteTable('merchants', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['V2', 'V3'] }).notNull(),
  name: text('name'),
  tokenSealed: text('token_sealed').notNull(),
  webhookSecretSealed: text('webhook_secret_sealed').notNull(),
  callbackUrl: text('callback_url'),
  compat: text('compat', { enum: ['none', 'xpay'] })
    .notNull()
    .default('none'),
  status: text('status', { enum: ['active', 'disabled'] }).notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
