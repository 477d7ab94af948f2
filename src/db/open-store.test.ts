import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../../test/helpers/harness.ts';
import { freshPgDatabase, pgAdminUrl } from '../../test/helpers/pg-database.ts';
import { createPgDatabase, dropPgDatabase, freePort } from '../../test/helpers/postgres-cluster.ts';
import { bootstrap, keyFingerprint } from '../bootstrap.ts';
import { ConfigError } from '../config/config-error.ts';
import { createKeyRing } from '../keys/key-ring.ts';
import { silentLogger } from '../lib/logger.ts';
import { openPg } from './pg/client.ts';
import { appliedPgCount } from './pg/migrate.ts';

// bootstrap on PostgreSQL (database.url): the same migrations modes as SQLite, the key check through
// the store, a clear error for a server it cannot reach, and a pool that close() really ends.

const OTHER_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/** A fresh migrated database (freshPgDatabase), dropped after the test. */
async function migratedDb(): Promise<string> {
  const db = await freshPgDatabase();
  drops.push(db.drop);
  return db.url;
}

/** A new, empty, never migrated database in the run's cluster. */
async function newDb(): Promise<string> {
  const name = `kassa_new_${randomBytes(5).toString('hex')}`;
  await createPgDatabase(pgAdminUrl(), name);
  drops.push(() => dropPgDatabase(pgAdminUrl(), name));
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

function open(url: string, options: { mnemonic?: string; migrations?: 'apply' | 'if-new' | 'require' } = {}) {
  return bootstrap({
    env: { KASSA_MNEMONIC: options.mnemonic ?? TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY },
    overrides: { database: { url } },
    migrations: options.migrations ?? 'require',
    logger: silentLogger(),
  });
}

/** Sessions connected to the database of `url` now (every Kassa pool connection is one). */
async function sessionsOn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: pgAdminUrl() });
  await client.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    const r = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
      name,
    ]);
    return r.rows[0].n as number;
  } finally {
    await client.end();
  }
}

async function problemsOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.join('\n');
}

describe('bootstrap on PostgreSQL', () => {
  it('runs on the database of database.url, stores the key fingerprint there, and close() ends the pool', async () => {
    const url = await migratedDb();
    const rt = await open(url);
    expect(rt.database).toEqual({ engine: 'postgres', name: url });
    expect(await rt.db.getSetting('key_fingerprint')).toBe(keyFingerprint(createKeyRing(TEST_MNEMONIC)));
    expect(await sessionsOn(url)).toBeGreaterThan(0);
    await rt.close();
    expect(await sessionsOn(url)).toBe(0);
    // The same keys open it again.
    const again = await open(url);
    await again.close();
  });

  it('refuses a database created with another mnemonic', async () => {
    const url = await migratedDb();
    await (await open(url)).close();
    expect(await problemsOf(open(url, { mnemonic: OTHER_MNEMONIC }))).toContain(
      'KASSA_MNEMONIC is not the mnemonic this database was created with',
    );
    expect(await sessionsOn(url)).toBe(0);
  });

  it('migrates as SQLite does: require refuses a new database, if-new and apply set it up', async () => {
    const url = await newDb();
    expect(await problemsOf(open(url))).toContain(
      `the database ${url} is not set up yet: run \`kassa migrate\``,
    );
    const rt = await open(url, { migrations: 'if-new' });
    const db = openPg(url, { max: 2 });
    try {
      expect(await appliedPgCount(db)).toBeGreaterThan(0);
    } finally {
      await db.$client.end();
    }
    await rt.close();
    const required = await open(url);
    await required.close();
  });

  it('names a server it cannot reach, or a database that does not exist, without the password', async () => {
    const port = await freePort();
    const down = `postgres://kassa:hunter2secret@127.0.0.1:${port}/kassa`;
    const problems = await problemsOf(open(down));
    expect(problems).toContain(
      `cannot reach the PostgreSQL database postgres://kassa:***@127.0.0.1:${port}/kassa`,
    );
    expect(problems).toContain('KASSA_DATABASE_URL');
    expect(problems).not.toContain('hunter2secret');

    const admin = new URL(pgAdminUrl());
    admin.password = 'hunter2secret';
    admin.pathname = '/kassa_missing';
    const missing = await problemsOf(open(admin.toString()));
    expect(missing).toContain('database "kassa_missing" does not exist');
    expect(missing).not.toContain('hunter2secret');
  });
});
