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
  /** The SQLite handle under `rt.db`, for tests that read or arrange rows directly. */
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
  close(): void;
}

/**
 * A migrated database in a temporary folder, a manual clock at T0, the HTTP apps in process, and
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
  const rt = await bootstrap({
    env: {
      KASSA_DB: join(dir, 'kassa.db'),
      KASSA_MNEMONIC: TEST_MNEMONIC,
      KASSA_MASTER_KEY: TEST_MASTER_KEY,
    },
    overrides: deepMerge({ webhooks: { allowPrivateTargets: true } }, overrides) as Record<string, unknown>,
    migrations: 'apply',
    logger: silentLogger(),
    clock,
    chains: options.chains ?? false,
  });
  const app = createApp(rt);
  return {
    rt,
    db: sqliteOf(rt.db),
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
    close() {
      rt.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads an R<T> envelope. */
export async function body<T = unknown>(res: Response): Promise<{ code: number; msg: string; data: T }> {
  return (await res.json()) as { code: number; msg: string; data: T };
}
