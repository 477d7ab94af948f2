import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPgDatabase, dropPgDatabase } from './postgres-cluster.ts';

const TEMPLATE = 'kassa_template';

/** A new, migrated, empty database in the run's PostgreSQL cluster (test/setup/postgres.ts). */
export interface FreshPgDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The run's cluster admin URL (test/setup/postgres.ts provides it). */
export function pgAdminUrl(): string {
  return inject('pgAdminUrl');
}

/** Copies the migrated template into a new database with a random name. */
export async function freshPgDatabase(): Promise<FreshPgDatabase> {
  const admin = pgAdminUrl();
  const name = `kassa_${randomBytes(6).toString('hex')}`;
  await createPgDatabase(admin, name, TEMPLATE);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => dropPgDatabase(admin, name) };
}
