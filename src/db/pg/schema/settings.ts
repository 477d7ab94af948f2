import { pgTable, text } from 'drizzle-orm/pg-core';

/** Facts about this installation, e.g. the fingerprint of the mnemonic its addresses came from. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
