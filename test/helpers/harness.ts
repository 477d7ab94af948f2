import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../src/bootstrap.ts';
import { deepMerge } from '../../src/config/load.ts';
import type { Db } from '../../src/db/client.ts';
import { sqliteOf } from '../../src/db/sqlite-store.ts';
import { createAdminApp } from '../../src/http/admin-app.ts';
import { createApp } from '../../src/http/app.ts';
import { manualClock } from '../../src/lib/clock.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import type { Deps } from '../../src/services/deps.ts';
import { adjustLedger } from '../../src/services/manage-ledger.ts';
import { createMerchant, type MerchantCreated } from '../../src/services/manage-merchants.ts';
import { envelope, signData } from './signing.ts';
import { testDatabase } from './test-engine.ts';

/**
 * The operator mnemonic of tests: a BIP-39 test vector, deliberately not anvil's dev mnemonic, so
 * Kassa's deposit addresses never coincide with the devnet's funded accounts.
 */
export const TEST_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
export const TEST_MASTER_KEY = '11'.repeat(32);
/** 2026-11-25 12:00:00 UTC. */
export const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

export interface Harness {
  rt: Deps;
  /**
   * The SQLite handle under `rt.db`, for tests that read or arrange rows directly; such tests run on
   * SQLite only (it throws on PostgreSQL: KASSA_TEST_ENGINE=postgres, see test/helpers/test-engine.ts).
   */
  db: Db;
  /** The public app (the API port). */
  app: ReturnType<typeof createApp>;
  /** The admin app (metrics, readiness detail), as the admin listener serves it. */
  admin: ReturnType<typeof createAdminApp>;
  clock: ReturnType<typeof manualClock>;
  dir: string;
  merchant(kind?: 'V2' | 'V3', callbackUrl?: string): Promise<MerchantCreated>;
  /** Tops up a merchant's available balance (what `kassa ledger adjust` does), so it can pay out. */
  fund(m: MerchantCreated, chain: string, symbol: string, amount: string): Promise<void>;
  /** POSTs a signed envelope for `m` (timestamp = the harness clock). */
  post(
    path: string,
    m: MerchantCreated,
    data: unknown,
    options?: {
      timestamp?: number;
      nonce?: string;
      dataText?: string;
      sign?: string;
      headers?: Record<string, string>;
    },
  ): Response | Promise<Response>;
  /** GETs `path` with `sign` = HMAC(token, orderId) appended. */
  getSigned(
    path: string,
    m: MerchantCreated,
    orderId: string,
    query?: Record<string, string>,
  ): Response | Promise<Response>;
  /** Closes the database; on PostgreSQL also drops it (awaiting is optional). */
  close(): Promise<void>;
}

/**
 * A migrated database (a file in a temporary folder; with KASSA_TEST_ENGINE=postgres a fresh
 * PostgreSQL database, test/helpers/test-engine.ts), a manual clock at T0, the HTTP apps in process, and
 * helpers to create merchants and send signed requests. `overrides` merge over the defaults and
 * over the harness's own: `webhooks.allowPrivateTargets` is on, since every test receiver listens on
 * 127.0.0.1 (tests of the refusal turn it off).
 */
export async function makeHarness(
  overrides: Record<string, unknown> = {},
  options: { clockStart?: number; chains?: boolean } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-test-'));
  const clock = manualClock(options.clockStart ?? T0);
  const database = await testDatabase(dir);
  let rt: Deps;
  try {
    rt = await bootstrap({
      env: {
        KASSA_DB: database.file,
        KASSA_MNEMONIC: TEST_MNEMONIC,
        KASSA_MASTER_KEY: TEST_MASTER_KEY,
      },
      overrides: deepMerge(
        deepMerge({ webhooks: { allowPrivateTargets: true } }, database.overrides),
        overrides,
      ) as Record<string, unknown>,
      migrations: 'apply',
      logger: silentLogger(),
      clock,
      chains: options.chains ?? false,
    });
  } catch (error) {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  if (rt.database.engine !== (database.url ? 'postgres' : 'sqlite')) {
    await rt.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `the harness asked for ${database.url ? 'PostgreSQL' : 'SQLite'} and got ${rt.database.engine}`,
    );
  }
  const app = createApp(rt);
  return {
    rt,
    get db() {
      if (database.url)
        throw new Error('h.db is the SQLite handle: a test that reads SQLite directly runs on SQLite only');
      return sqliteOf(rt.db);
    },
    app,
    admin: createAdminApp(rt),
    clock,
    dir,
    merchant: (kind = 'V3', callbackUrl) => createMerchant(rt, { kind, name: `test ${kind}`, callbackUrl }),
    async fund(m, chain, symbol, amount) {
      await adjustLedger(rt, { merchantId: m.merchantId, chain, symbol, amount, reason: 'test top-up' });
    },
    post: (path, m, data, options = {}) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: envelope(m.token, data, { timestamp: Math.floor(clock.now() / 1000), ...options }),
      }),
    getSigned: (path, m, orderId, query = {}) => {
      const qs = new URLSearchParams({ orderId, sign: signData(m.token, orderId), ...query });
      if (path.includes('{orderId}')) {
        qs.delete('orderId');
        return app.request(`${path.replace('{orderId}', encodeURIComponent(orderId))}?${qs}`);
      }
      return app.request(`${path}?${qs}`);
    },
    async close() {
      await rt.close();
      rmSync(dir, { recursive: true, force: true });
      // PostgreSQL: the database goes too (a test that does not await close still drops it, later).
      await database.drop().catch(() => {});
    },
  };
}

/** Reads an R<T> envelope. */
export async function body<T = unknown>(res: Response): Promise<{ code: number; msg: string; data: T }> {
  return (await res.json()) as { code: number; msg: string; data: T };
}
