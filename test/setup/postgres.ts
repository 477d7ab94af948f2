import type { TestProject } from 'vitest/node';
import { closePg, openPg } from '../../src/db/pg/client.ts';
import { applyPgMigrations } from '../../src/db/pg/migrate.ts';
import { createPgDatabase, startPgCluster } from '../helpers/postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway cluster's admin URL (database `postgres`); see test/helpers/pg-database.ts. */
    pgAdminUrl: string;
  }
}

/** The database every test database is copied from: migrated once per run. */
export const PG_TEMPLATE = 'kassa_template';

/**
 * One throwaway PostgreSQL cluster for the whole test run (vitest globalSetup): started once,
 * with a migrated template database that each test copies (CREATE DATABASE … TEMPLATE, a few
 * milliseconds), stopped at the end. The suites that run on both engines take their databases
 * from it through freshPgDatabase().
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPgCluster();
  try {
    await createPgDatabase(cluster.adminUrl, PG_TEMPLATE);
    const db = openPg(cluster.urlOf(PG_TEMPLATE), { max: 2 });
    try {
      await applyPgMigrations(db);
    } finally {
      await closePg(db);
    }
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('pgAdminUrl', cluster.adminUrl);
  process.env.KASSA_TEST_PG_ADMIN_URL = cluster.adminUrl;
  return () => cluster.stop();
}
