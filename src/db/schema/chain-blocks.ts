import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The hashes of the blocks a chain's scanner read while they were not final yet, from the final
 * height recorded with the checkpoint up to the checkpoint itself, written in the same transaction
 * as the checkpoint. Before resuming, the scanner compares them with the chain: the highest one
 * still there is where a reorganisation forked, whatever the chain's final height is by then.
 */
export const chainBlocks = sqliteTable(
  'chain_blocks',
  {
    chain: text('chain').notNull(),
    height: integer('height').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.height] })],
);
