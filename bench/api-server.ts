/**
 * The servers bench/api.ts measures, one per process (argv[2]):
 * - `kassa`: the real API (bootstrap, migrated SQLite in WAL, address pool filled first, the merchant's
 *   ledger funded for payouts; no chain connected, so createPayout skips the hot-wallet read);
 * - `baseline`: a bare Hono endpoint doing one HMAC check and one better-sqlite3 insert, each its own
 *   commit in WAL with synchronous=NORMAL (no fsync: not durable across a power loss);
 * - `baseline-durable`: the same with synchronous=FULL, the durability Kassa's database runs with.
 * Prints one JSON line `{ready, port, token?, xpay?}` on stdout when it listens (`xpay`: the token
 * and webhook secret of a second merchant, in XPay mode, for bench/xpay.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { bootstrap } from '../src/bootstrap.ts';
import { createApp } from '../src/http/app.ts';
import { silentLogger } from '../src/lib/logger.ts';
import { fillAddressPool } from '../src/services/fill-address-pool.ts';
import { adjustLedger } from '../src/services/manage-ledger.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';

const mode = process.argv[2];
const pool = Number(process.argv[3] ?? 0);
const dir = mkdtempSync(join(tmpdir(), 'kassa-bench-'));

function listen(fetch: (req: Request) => Response | Promise<Response>, extra: Record<string, unknown>) {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`${JSON.stringify({ ready: true, port: info.port, ...extra })}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
  process.on('SIGINT', () => process.exit(0));
}

if (mode === 'baseline' || mode === 'baseline-durable') {
  const db = new Database(join(dir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma(mode === 'baseline' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  db.exec(
    'CREATE TABLE hits (id INTEGER PRIMARY KEY, nonce TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO hits (nonce, body, at) VALUES (?, ?, ?)');
  const token = 'ab'.repeat(32);
  const app = new Hono().post('/hit', async (c) => {
    const text = await c.req.text();
    const body = JSON.parse(text) as { sign: string; nonce: string; data: unknown };
    const expected = createHmac('sha256', token).update(JSON.stringify(body.data)).digest();
    if (!timingSafeEqual(expected, Buffer.from(body.sign, 'hex'))) return c.json({ code: 401 }, 401);
    insert.run(body.nonce, text, Date.now());
    return c.json({ code: 200, msg: 'success', data: null });
  });
  listen(app.fetch, { token });
} else {
  const rt = await bootstrap({
    env: {
      KASSA_DB: join(dir, 'kassa.db'),
      KASSA_MNEMONIC: 'test test test test test test test test test test test junk',
      KASSA_MASTER_KEY: '22'.repeat(32),
    },
    overrides: {
      rateLimits: {
        createCollection: { limit: 1_000_000, windowSeconds: 10 },
        createPayout: { limit: 1_000_000, windowSeconds: 10 },
        status: { limit: 1_000_000, windowSeconds: 10 },
      },
    },
    migrations: 'apply',
    walCheckpointer: process.env.BENCH_INLINE_CHECKPOINTS !== '1', // as `kassa api` runs
    lockWait: 'async',
    logger: silentLogger(),
  });
  const merchant = await createMerchant(rt, { kind: 'V3' });
  // createPayout freezes amount + fee on the merchant's ledger: give it plenty to pay out
  for (const [chain, symbol] of [
    ['ETH', 'USDT'],
    ['TRON', 'USDT'],
    ['BSC', 'USDC'],
  ] as const)
    await adjustLedger(rt, {
      merchantId: merchant.merchantId,
      chain,
      symbol,
      amount: '+1000000000',
      reason: 'bench',
    });
  const started = Date.now();
  for (const family of ['evm', 'tron'] as const) {
    while ((await fillAddressPool(rt, family, pool, 500)) > 0) {}
  }
  const poolMs = Date.now() - started;
  // made after the first one, so the interface's requests (no X-Merchant-Id) still match at the first HMAC
  const xpay = await createMerchant(rt, { kind: 'V3', compat: 'xpay' });
  listen(createApp(rt).fetch, {
    token: merchant.token,
    poolMs,
    xpay: { token: xpay.token, webhookSecret: xpay.webhookSecret },
  });
}
