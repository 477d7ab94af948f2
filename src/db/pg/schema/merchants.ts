import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Merchants. Token and webhook secret are sealed with the master key (AES-256-GCM), never stored plain.
 * `compat` = `xpay` also serves the merchant the way XPay Labs' SDKs expect (issue 13,
 * docs/xpay-migration.md); `none` is the interface alone.
 */
export const merchants = pgTable('merchants', {
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
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});
