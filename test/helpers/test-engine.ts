import { join } from 'node:path';

/** The database engine the tests of this process run on: `KASSA_TEST_ENGINE=postgres` or SQLite. */
export type TestEngine = 'sqlite' | 'postgres';

/** The engine chosen for this test process (vitest's `postgres` project sets KASSA_TEST_ENGINE). */
export function testEngine(): TestEngine {
  return process.env.KASSA_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

/** The database of one harness or world, on the engine of this test process. */
export interface TestDatabase {
  /** The SQLite file a harness in `dir` uses; on PostgreSQL it stays unused but names the database. */
  file: string;
  /** PostgreSQL's URL, or null on SQLite. */
  url: string | null;
  /** Config overrides that point bootstrap at this database (`database.url` on PostgreSQL). */
  overrides: Record<string, unknown>;
  /** Drops the PostgreSQL database (closing what is still connected); nothing on SQLite. */
  drop(): Promise<void>;
}

/**
 * SQLite files of this test file's harnesses that live on PostgreSQL, with their databases' URLs:
 * a `kassa` process a test spawns with `KASSA_DB` = a harness's file runs on the same PostgreSQL
 * database (test/helpers/cli.ts adds KASSA_DATABASE_URL), so the tests that spawn the CLI and the
 * worker on a harness's database need no change to run on both engines.
 */
const pgByFile = new Map<string, string>();

/**
 * The database a harness in `dir` runs on: `dir/kassa.db` on SQLite; on PostgreSQL a fresh database
 * copied from the run's migrated template (test/setup/postgres.ts), to drop when the harness closes.
 */
export async function testDatabase(dir: string): Promise<TestDatabase> {
  const file = join(dir, 'kassa.db');
  if (testEngine() === 'sqlite') return { file, url: null, overrides: {}, drop: async () => {} };
  // Loaded here only: it reads the run's cluster from vitest, and benchmarks import the harness too.
  const { freshPgDatabase } = await import('./pg-database.ts');
  const pg = await freshPgDatabase();
  pgByFile.set(file, pg.url);
  return {
    file,
    url: pg.url,
    overrides: { database: { url: pg.url } },
    async drop() {
      pgByFile.delete(file);
      await pg.drop();
    },
  };
}

/**
 * The environment of a spawned `kassa` process: unchanged on SQLite, or when `KASSA_DB` is no
 * harness's file; otherwise with KASSA_DATABASE_URL naming that harness's PostgreSQL database.
 */
export function engineEnv(env: Record<string, string>): Record<string, string> {
  const url = env.KASSA_DB ? pgByFile.get(env.KASSA_DB) : undefined;
  return url && env.KASSA_DATABASE_URL === undefined ? { ...env, KASSA_DATABASE_URL: url } : env;
}

/** Makes `kassa` processes spawned with `KASSA_DB` = `file` run on PostgreSQL at `url` (benchmarks). */
export function bindFileToPostgres(file: string, url: string): void {
  pgByFile.set(file, url);
}
