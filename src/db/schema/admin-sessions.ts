import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Dashboard sign-ins. The id is the SHA-256 of the cookie's random token, so a copy of the database
 * opens no session. `stage` is `password` between a right password and the TOTP code, `full` after.
 */
export const adminSessions = sqliteTable(
  'admin_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    stage: text('stage', { enum: ['password', 'full'] }).notNull(),
    /** Client address and browser at sign-in, to tell sessions apart on the account page. */
    address: text('address'),
    userAgent: text('user_agent'),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    /** The absolute end of the session, whatever its activity. */
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('admin_sessions_user').on(t.userId), index('admin_sessions_expires').on(t.expiresAt)],
);
