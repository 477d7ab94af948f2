import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Dashboard sign-ins. The id is the SHA-256 of the cookie's random token, so a copy of the database
 * opens no session. `stage` is `password` between a right password and the TOTP code, `full` after.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    stage: text('stage', { enum: ['password', 'full'] }).notNull(),
    /** Client address and browser at sign-in, to tell sessions apart on the account page. */
    address: text('address'),
    userAgent: text('user_agent'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    lastSeenAt: bigint('last_seen_at', { mode: 'number' }).notNull(),
    /** The absolute end of the session, whatever its activity. */
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('admin_sessions_user').on(t.userId), index('admin_sessions_expires').on(t.expiresAt)],
);
