import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootstrap, copyDatabase } from '../../src/bootstrap.ts';
import { createApp } from '../../src/http/app.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import type { Deps } from '../../src/services/deps.ts';
import { addToken } from '../../src/services/manage-tokens.ts';
import { kassa } from '../helpers/cli.ts';
import { type FilledShop, filledTronShop } from '../helpers/filled-shop.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { freshPgDatabase, pgAdminUrl } from '../helpers/pg-database.ts';
import { createPgDatabase, dropPgDatabase } from '../helpers/postgres-cluster.ts';
import { signData } from '../helpers/signing.ts';
import { pgRows, sqliteRows } from '../helpers/table-rows.ts';

// `kassa db copy --to URL`: a SQLite database full of real records (filled-shop.ts) into PostgreSQL,
// every value kept, the PostgreSQL store answering as SQLite's did; a second copy refused.

let shop: FilledShop;
let file: string;
const created: string[] = [];
const drops: (() => Promise<void>)[] = [];

/** A new database in the run's cluster: never migrated (no template). */
async function newDatabase(): Promise<string> {
  const name = `kassa_copy_${randomBytes(5).toString('hex')}`;
  await createPgDatabase(pgAdminUrl(), name);
  created.push(name);
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

beforeAll(async () => {
  // The copy's source is a SQLite file whichever engine the other suites run on.
  vi.stubEnv('KASSA_TEST_ENGINE', 'sqlite');
  shop = await filledTronShop();
  file = join(shop.w.h.dir, 'kassa.db');
}, 180_000);

let rt: Deps | undefined;

afterAll(async () => {
  vi.unstubAllEnvs();
  await rt?.close();
  await shop?.w.close();
  for (const name of created) await dropPgDatabase(pgAdminUrl(), name);
  for (const drop of drops) await drop();
});

/** Kassa on the PostgreSQL database `url`, with the shop's settings, keys and clock. */
function onPostgres(url: string): Promise<Deps> {
  const { config } = shop.w.h.rt;
  return bootstrap({
    env: { KASSA_MNEMONIC: TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY },
    overrides: { ...config, database: { ...config.database, url } },
    logger: silentLogger(),
    clock: shop.w.h.clock,
  });
}

describe('kassa db copy', () => {
  let url: string;
  /** Kassa on the copy (opened by the third test). */
  const onCopy = () => rt as Deps;

  it('copies into a new database, migrating it first, and prints every table with its rows', async () => {
    url = await newDatabase();
    const r = kassa(['db', 'copy', '--to', url], { KASSA_DB: file });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const source = sqliteRows(file);
    for (const [table, rows] of source)
      expect(r.stdout).toMatch(new RegExp(`^${table}\\s+${rows.length}\\s*$`, 'm'));
    const total = [...source.values()].reduce((n, rows) => n + rows.length, 0);
    expect(r.stdout).toContain(`copied ${total} rows in ${source.size} tables from ${file} to ${url}`);
    // Real data in the tables that matter, not an empty copy.
    for (const table of [
      'merchants',
      'orders',
      'chain_transfers',
      'ledger_entries',
      'merchant_balances',
      'payout_attempts',
      'sweeps',
      'sweep_txs',
      'webhook_events',
      'webhook_attempts',
      'settings',
      'tokens',
      'admin_users',
      'reconciliations',
      'deposit_addresses',
      'chain_blocks',
    ])
      expect(source.get(table)?.length, table).toBeGreaterThan(0);
  });

  it('keeps every value of every row exactly (money as text, ids, times, the held flag)', async () => {
    expect(await pgRows(url)).toEqual(sqliteRows(file));
  });

  it('answers on PostgreSQL as on SQLite: orders through the API, balances, payouts, events, sweeps', async () => {
    rt = await onPostgres(url); // the key fingerprint came along: the same mnemonic opens it
    const pgRt = onCopy();
    const sqlite = shop.w.h.rt;
    const [pgApp, sqliteApp] = [createApp(pgRt), shop.w.h.app];
    for (const orderId of shop.orderIds) {
      const path = `/v1/order/status/${orderId}?sign=${signData(shop.shop.token, orderId)}`;
      shop.w.h.clock.advance(600); // past the per-order query limit
      const [a, b] = [await (await sqliteApp.request(path)).json(), await (await pgApp.request(path)).json()];
      expect(b).toEqual(a);
      expect((a as { code: number }).code).toBe(200);
      const order = await sqlite.db.findOrderByMerchantOrderId(shop.shop.merchantId, orderId);
      expect(await pgRt.db.findOrderByMerchantOrderId(shop.shop.merchantId, orderId)).toEqual(order);
    }
    // The same lists. Rows of the same millisecond (this shop's clock stands still) may come in
    // another order on PostgreSQL, which has no rowid to break the tie: compared by id.
    const same = async <T>(read: (d: Deps) => Promise<T[]>, key: (row: T) => string) => {
      const sorted = (rows: T[]) => [...rows].sort((x, y) => key(x).localeCompare(key(y)));
      expect(sorted(await read(pgRt))).toEqual(sorted(await read(sqlite)));
      expect((await read(sqlite)).length).toBeGreaterThan(0);
    };
    const merchantId = shop.shop.merchantId;
    await same(
      (d) => d.db.listBalances(),
      (b) => `${b.merchantId}/${b.chain}/${b.symbol}`,
    );
    await same(
      (d) => d.db.listLedgerEntries({ merchantId }),
      (e) => e.id,
    );
    await same(
      (d) => d.db.listPayouts(),
      (p) => p.order.id,
    );
    await same(
      (d) => d.db.listWebhookEvents({ merchantId, limit: 100 }),
      (e) => e.id,
    );
    await same(
      (d) => d.db.listSweeps(),
      (s) => s.id,
    );
    await same(
      (d) => d.db.listAdminUsers(),
      (u) => u.id,
    );
    expect((await pgRt.db.listSweeps()).some((s) => s.held)).toBe(true);
    expect(await pgRt.db.getSetting('key_fingerprint')).toBe(await sqlite.db.getSetting('key_fingerprint'));
  });

  it('gives new rows ids after the copied ones (identity sequences moved)', async () => {
    const attempts = async () =>
      (await onCopy().db.listWebhookEvents({ merchantId: shop.shop.merchantId, limit: 100 })).reduce(
        (n, e) => n + e.attempts,
        0,
      );
    const before = await attempts();
    shop.w.h.clock.advance(24 * 3600_000); // every retry is due
    await deliverWebhooks(onCopy());
    expect(await attempts()).toBeGreaterThan(before);
    await addToken(onCopy(), {
      chain: 'TRON',
      symbol: 'USDX',
      contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      decimals: 6,
    });
    expect((await onCopy().db.listAddedTokens(onCopy().config.network)).map((t) => t.symbol).sort()).toEqual([
      'USDD',
      'USDX',
    ]);
  });

  it('refuses a second copy into a database that holds data, and changes nothing', async () => {
    const before = await pgRows(url);
    const r = kassa(['db', 'copy', '--to', url], { KASSA_DB: file });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("already holds Kassa's data");
    expect(r.stderr).toContain('Nothing was copied');
    expect(await pgRows(url)).toEqual(before);
  });

  it('copies into an empty migrated database too (freshly made with kassa migrate)', async () => {
    const fresh = await freshPgDatabase();
    drops.push(fresh.drop);
    const report = await copyDatabase({ env: { KASSA_DB: file }, to: fresh.url });
    expect(report.total).toBeGreaterThan(50);
    expect(await pgRows(fresh.url)).toEqual(sqliteRows(file));
  });
});

describe('kassa db copy refuses', () => {
  it("a database that holds tables that are not Kassa's, before touching it", async () => {
    const url = await newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE invoices (id int)');
    await client.end();
    await expect(copyDatabase({ env: { KASSA_DB: file }, to: url })).rejects.toThrow(
      /not Kassa's \(invoices\)/,
    );
    expect([...(await pgRows(url)).keys()]).toEqual(['invoices']);
  });

  it('while another process writes to the SQLite database (Kassa still running)', async () => {
    const url = await newDatabase();
    const writer = new Database(file);
    writer.exec('BEGIN IMMEDIATE');
    try {
      await expect(copyDatabase({ env: { KASSA_DB: file }, to: url })).rejects.toThrow(
        /another process is writing to .*: stop Kassa/,
      );
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
    const tables = await pgRows(url);
    expect([...tables.values()].every((rows) => rows.length === 0)).toBe(true);
  });

  it('a SQLite file that is not there, and copies nothing when a value does not fit (all or nothing)', async () => {
    const url = await newDatabase();
    await expect(copyDatabase({ env: { KASSA_DB: join(shop.w.h.dir, 'none.db') }, to: url })).rejects.toThrow(
      /there is no SQLite database at/,
    );
    const broken = join(shop.w.h.dir, 'broken.db');
    const db = new Database(file, { readonly: true });
    db.exec(`VACUUM INTO '${broken}'`);
    db.close();
    const edit = new Database(broken);
    edit.exec("UPDATE orders SET decimals = 6.5 WHERE order_id = 'c-unpaid'");
    edit.close();
    await expect(copyDatabase({ env: { KASSA_DB: broken }, to: url })).rejects.toThrow(
      /copying orders failed, nothing was copied: orders.decimals holds the real number 6.5/,
    );
    const tables = await pgRows(url);
    expect(tables.get('merchants')).toEqual([]); // copied before orders, rolled back with it
    expect([...tables.values()].every((rows) => rows.length === 0)).toBe(true);
    rmSync(broken);
  });
});
