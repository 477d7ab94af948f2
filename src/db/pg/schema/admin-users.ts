import { bigint, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * People who sign in to the dashboard. The password is an scrypt hash (lib/password.ts); the TOTP
 * key is sealed with the master key like merchant secrets. `failedSignIns` counts wrong passwords
 * since the last success; `lockedUntil` refuses every attempt on the account until then.
 */
export const adminUsers = pgTable(
  'admin_users',
  {
    id: text('id').primaryKey(),
    /** Lower-cased and trimmed. */
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'viewer'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Sealed TOTP key once the second factor is on; null when it is off. */
    totpSealed: text('totp_sealed'),
    /** Sealed TOTP key shown to the user while they set up their app, until a code confirms it. */
    totpPendingSealed: text('totp_pending_sealed'),
    /** The last TOTP time step accepted: a code of that step or an earlier one is never taken again. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    failedSignIns: bigint('failed_sign_ins', { mode: 'number' }).notNull().default(0),
    lockedUntil: bigint('locked_until', { mode: 'number' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('admin_users_email').on(t.email)],
);
