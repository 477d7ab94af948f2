import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../src/domain/chains.ts';
import { freePort, kassa, spawnKassa, waitForHttp } from '../helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { envelope, signData } from '../helpers/signing.ts';

/**
 * Issue 14, item 4: another process holds SQLite's write lock (an operator's `sqlite3` session, a
 * long `kassa` command). `kassa start` (API and worker on one event loop) must keep answering:
 * /healthz within 100 ms, reads as usual, writes with `503 The service is busy. Please retry.` once
 * they waited `database.lockWaitMs` (5 s) asynchronously, and writes again once the lock is free.
 */
const dir = mkdtempSync(join(tmpdir(), 'kassa-lock-'));
const dbPath = join(dir, 'kassa.db');
const env = {
  KASSA_DB: dbPath,
  KASSA_MNEMONIC: TEST_MNEMONIC,
  KASSA_MASTER_KEY: TEST_MASTER_KEY,
  ...Object.fromEntries(CHAINS.map((c) => [`KASSA_RPC_${c}`, ''])),
  // TRON stays enabled (its RPC is never reached by these tests) so that it is a supported chain.
  KASSA_RPC_TRON: 'http://127.0.0.1:9',
};
let server: ChildProcess;
let base = '';
let merchant: { merchantId: string; token: string };

/** A second process that takes the write lock (BEGIN IMMEDIATE), holds it `holdMs`, then commits. */
function holdWriteLock(holdMs: number): {
  locked: Promise<void>;
  released: Promise<void>;
  child: ChildProcess;
} {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const source = `
    const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(dbPath)});
    db.pragma('busy_timeout = 10000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO settings (key, value) VALUES ('lock_holder', 'x') ON CONFLICT (key) DO UPDATE SET value = 'y'").run();
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released'); }, ${holdMs});
  `;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const seen = (word: string) =>
    new Promise<void>((resolve) => lines.on('line', (l) => l.trim() === word && resolve()));
  return { locked: seen('locked'), released: seen('released'), child };
}

async function timed(
  path: string,
  init?: RequestInit,
): Promise<{ ms: number; status: number; body: unknown }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, init);
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  return { ms: performance.now() - started, status: res.status, body };
}

const create = (orderId: string) =>
  timed('/v1/order/createCollection', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: envelope(merchant.token, { amount: '5', symbol: 'USDT', chain: 'TRON', orderId }),
  });

beforeAll(async () => {
  // The polling below reads far faster than the default per-order and per-IP limits allow.
  const config = join(dir, 'kassa.json');
  writeFileSync(
    config,
    JSON.stringify({
      rateLimits: {
        getOrderStatus: { limit: 100_000, windowSeconds: 1 },
        supportSymbols: { limit: 100_000, windowSeconds: 1 },
      },
    }),
  );
  expect(kassa(['migrate'], env).code).toBe(0);
  merchant = JSON.parse(kassa(['merchant', 'create', '--kind', 'V3'], env).stdout);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawnKassa(['start', '--config', config], { ...env, PORT: String(port), KASSA_LOG_LEVEL: 'warn' });
  await waitForHttp(`${base}/healthz`, 60_000);
  expect((await create('before-lock')).status).toBe(200);
}, 90_000);

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('another process holding the write lock for 10 s', () => {
  it('leaves /healthz and reads answering, turns writes away with 503 after 5 s, and writes again after', async () => {
    const holder = holdWriteLock(10_000);
    await holder.locked;
    let released = false;
    void holder.released.then(() => {
      released = true;
    });

    // Liveness and reads, polled for as long as the lock is held.
    const health: number[] = [];
    const reads: { status: number; ms: number }[] = [];
    const polling = (async () => {
      while (!released) {
        health.push((await timed('/healthz')).ms);
        const sign = signData(merchant.token, 'before-lock');
        const r = await timed(`/v1/order/getOrderStatus?orderId=before-lock&sign=${sign}`);
        reads.push({ status: r.status, ms: r.ms });
        const symbols = await timed('/v1/symbol/supportSymbols?chain=TRON');
        reads.push({ status: symbols.status, ms: symbols.ms });
        await new Promise((resolve) => setTimeout(resolve, 20)); // pace the polling
      }
    })();

    // Writes, one after the other: each waits for the lock (asynchronously) and either gets it or is
    // turned away at its deadline, until one lands after the release.
    const writes: { status: number; ms: number; body: unknown; afterRelease: boolean }[] = [];
    for (let i = 0; !writes.some((w) => w.status === 200); i++) {
      const w = await create(`during-lock-${i}`);
      writes.push({ ...w, afterRelease: released });
      expect(i).toBeLessThan(10);
    }
    await polling;

    // Before the fix each probe waited out SQLite's busy timeout (5 s). Now the event loop is never
    // held more than ~40 ms: nearly every probe answers in a few ms. The bound is on the 99th
    // percentile (and a ceiling far below 5 s) because this machine is shared with other test runs,
    // whose load alone delays a process now and then.
    expect(health.length).toBeGreaterThan(20);
    const sorted = [...health].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.99)]).toBeLessThan(100);
    expect(sorted.at(-1)).toBeLessThan(1000);
    expect(reads.filter((r) => r.status !== 200)).toEqual([]);

    const [first] = writes;
    expect(first?.status).toBe(503);
    expect(first?.body).toEqual({ code: 503, msg: 'The service is busy. Please retry.', data: null });
    expect(first?.ms).toBeGreaterThanOrEqual(4900);
    for (const w of writes.slice(0, -1)) expect(w.status).toBe(503);
    expect(writes.at(-1)?.status).toBe(200);

    // What was turned away was not written; what landed is there.
    const status = async (orderId: string) =>
      (await timed(`/v1/order/getOrderStatus?orderId=${orderId}&sign=${signData(merchant.token, orderId)}`))
        .status;
    expect(await status('during-lock-0')).toBe(404);
    expect(await status(`during-lock-${writes.length - 1}`)).toBe(200);
    expect((await create('after-lock')).status).toBe(200);
  }, 60_000);
});
