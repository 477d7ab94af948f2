import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './client.ts';
import { applyMigrations } from './migrate.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { storeContract } from './store.contract.ts';

// The SQLite implementation of the port keeps the contract, on a database migrated from drizzle/.
storeContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-store-'));
  const db = openDatabase(join(dir, 'kassa.db'));
  applyMigrations(db);
  return {
    store: createSqliteStore(db),
    close() {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
