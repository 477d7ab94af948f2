import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Derived deposit addresses by (family, derivation index). A row with no order is in the pool; once
 * an order takes it, it is never given to another order.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    family: text('family', { enum: ['evm', 'tron', 'sui'] }).notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    address: text('address').notNull(),
    orderRef: text('order_ref'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    allocatedAt: bigint('allocated_at', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.family, t.idx] }),
    uniqueIndex('deposit_addresses_address').on(t.address),
    // The pool: free addresses in index order. No index on order_ref, or the planner would pick it
    // for `order_ref IS NULL` and sort the whole pool on every allocation.
    index('deposit_addresses_free').on(t.family, t.idx).where(sql`order_ref IS NULL`),
  ],
);
