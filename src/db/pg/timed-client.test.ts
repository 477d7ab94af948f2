import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FreshPgDatabase, freshPgDatabase } from '../../../test/helpers/pg-database.ts';
import { pgQuery } from '../../../test/helpers/pg-query.ts';
import { startTcpProxy, type TcpProxy } from '../../../test/helpers/tcp-proxy.ts';
import { AppError } from '../../domain/errors.ts';
import { closePg, openPg, type PgDb, pgTransaction } from './client.ts';

// A transaction cut off by a network partition, seen from both ends: the caller gets `busy` within
// the query timeout, the abandoned transaction is never finished by a later caller's COMMIT once
// the partition heals, and the server gives back its row locks after the idle-in-transaction
// timeout even though it never sees the connection close.

let database: FreshPgDatabase;
let proxy: TcpProxy;
let db: PgDb;

beforeEach(async () => {
  database = await freshPgDatabase();
  const url = new URL(database.url);
  proxy = await startTcpProxy(Number(url.port));
  url.port = String(proxy.port);
  db = openPg(url.toString(), {
    max: 1,
    queryTimeoutMs: 500,
    connectTimeoutMs: 500,
    idleInTransactionMs: 1000,
  });
});

afterEach(async () => {
  proxy.resume();
  await closePg(db);
  await proxy.close();
  await database.drop();
});

/** Runs a transaction that writes `key`, then is cut off by a partition before it can commit. */
async function cutOff(key: string): Promise<unknown> {
  return pgTransaction(db, async (tx) => {
    await tx.execute(sql`INSERT INTO settings (key, value) VALUES (${key}, 'abandoned')`);
    proxy.stall();
    await tx.execute(sql`SELECT 1`);
  }).catch((error: unknown) => error);
}

const keys = async () =>
  (await pgQuery<{ key: string }>(database.url, 'SELECT key FROM settings ORDER BY key')).map((r) => r.key);

describe('a transaction cut off by a partition', () => {
  it('fails as busy, and is not committed by the next transaction on the pool once the partition heals', async () => {
    const error = await cutOff('cut');
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('busy');
    proxy.resume();
    // the pool has one connection: the next transaction must not run inside the abandoned one
    await pgTransaction(db, async (tx) => {
      await tx.execute(sql`INSERT INTO settings (key, value) VALUES ('next', 'committed')`);
    });
    expect(await keys()).toEqual(['next']);
  });

  it('gives back its row locks after the idle-in-transaction timeout, though the server never sees it close', async () => {
    await pgQuery(database.url, "INSERT INTO settings (key, value) VALUES ('row', 'v')");
    const error = await pgTransaction(db, async (tx) => {
      await tx.execute(sql`SELECT value FROM settings WHERE key = 'row' FOR UPDATE`);
      proxy.stall();
      await tx.execute(sql`SELECT 1`);
    }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('busy');
    // another process wants the row: it gets it once the server ended the abandoned transaction
    const deadline = Date.now() + 5000;
    for (;;) {
      const taken = await pgQuery(
        database.url,
        "SELECT value FROM settings WHERE key = 'row' FOR UPDATE NOWAIT",
      )
        .then(() => true)
        .catch((e: { code?: string }) => {
          if (e.code !== '55P03') throw e; // lock_not_available: still held
          return false;
        });
      if (taken) break;
      if (Date.now() > deadline) throw new Error('the row lock was still held 5 s after the partition');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
