import { freshPgDatabase } from '../../test/helpers/pg-database.ts';
import { closePg, openPg } from './pg/client.ts';
import { createPgStore } from './pg-store.ts';
import { storeContract } from './store.contract.ts';

// The PostgreSQL implementation of the port keeps the same contract as SQLite's, each test on a new
// database copied from the run's migrated template (test/setup/postgres.ts).
storeContract('PostgreSQL', async () => {
  // A pool of 8 connections, so the contract's concurrent calls really race on this engine.
  const database = await freshPgDatabase();
  const db = openPg(database.url, { max: 8 });
  return {
    store: createPgStore(db),
    async close() {
      await closePg(db);
      await database.drop();
    },
  };
});
