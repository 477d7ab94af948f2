import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Facts about this installation, e.g. the fingerprint of the mnemonic its addresses came from. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
