import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * The hashes of the blocks a chain's scanner read while they were not final yet, from the final
 * height recorded with the checkpoint up to the checkpoint itself, written in the same transaction
 * as the checkpoint. Before resuming, the scanner compares them with the chain: the highest one
 * still there is where a reorganisation forked, whatever the chain's final height is by then.
 */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    chain: text('chain').notNull(),
    height: bigint('height', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.height] })],
);
