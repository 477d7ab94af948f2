import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshPgDatabase, freshPgDatabase, pgAdminUrl } from '../../../../test/helpers/pg-database.ts';
import { WRITE_PROBE_KEY } from '../../repositories/ops.ts';
import { closePg, openPg, type PgDb } from '../client.ts';
import { probeWrite } from './ops.ts';
import { getSetting } from './settings.ts';

// The readiness probe on PostgreSQL must fail where writes fail: a server that only reads (a standby,
// or a database switched to read-only), and a probe row held by a stuck transaction.

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
let database: FreshPgDatabase;
const pools: PgDb[] = [];
const open = (url: string) => {
  const db = openPg(url, { max: 2 });
  pools.push(db);
  return db;
};

beforeEach(async () => {
  database = await freshPgDatabase();
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map(closePg));
  await database.drop();
});

async function setReadOnly(on: boolean): Promise<void> {
  const admin = openPg(pgAdminUrl(), { max: 1 });
  try {
    await admin.execute(
      sql.raw(`ALTER DATABASE "${database.name}" SET default_transaction_read_only = ${on ? 'on' : 'off'}`),
    );
  } finally {
    await closePg(admin);
  }
}

describe('the write probe on PostgreSQL', () => {
  it('fails on a database that only reads, and passes once it takes writes again', async () => {
    await setReadOnly(true);
    const readOnly = open(database.url); // the setting applies to sessions opened after it
    await expect(probeWrite(readOnly, T0)).rejects.toThrow(/read-only transaction/);
    expect(await getSetting(readOnly, WRITE_PROBE_KEY)).toBeNull();
    await setReadOnly(false);
    const writable = open(database.url);
    await probeWrite(writable, T0 + 1);
    expect(await getSetting(writable, WRITE_PROBE_KEY)).toBe(String(T0 + 1));
  });

  it('reports failure instead of waiting behind a transaction that holds the probe row', async () => {
    const db = open(database.url);
    await probeWrite(db, T0);
    const holder = await db.$client.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('UPDATE settings SET value = $1 WHERE key = $2', ['held', WRITE_PROBE_KEY]);
      await expect(probeWrite(db, T0 + 1)).rejects.toThrow(/lock timeout/);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    await probeWrite(db, T0 + 2);
    expect(await getSetting(db, WRITE_PROBE_KEY)).toBe(String(T0 + 2));
  });
});
