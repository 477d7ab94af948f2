import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../src/domain/chains.ts';
import { freePort, kassa, sigkill, spawnKassa, waitForHttp } from '../helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { pgAdminUrl } from '../helpers/pg-database.ts';
import { createPgDatabase, dropPgDatabase } from '../helpers/postgres-cluster.ts';
import { envelope } from '../helpers/signing.ts';

// The `kassa` command on PostgreSQL (KASSA_DATABASE_URL) beside SQLite (KASSA_DB): migrate on both,
// and the other commands and the API server on PostgreSQL, never touching the SQLite file.

const dir = mkdtempSync(join(tmpdir(), 'kassa-pg-cli-'));
const name = `kassa_cli_${randomBytes(5).toString('hex')}`;
const url = (() => {
  const u = new URL(pgAdminUrl());
  u.pathname = `/${name}`;
  return u.toString();
})();
/** KASSA_DB names a file that must stay untouched while the URL is set. */
const sqliteFile = join(dir, 'unused.db');
const env = {
  KASSA_DB: sqliteFile,
  KASSA_DATABASE_URL: url,
  KASSA_MNEMONIC: TEST_MNEMONIC,
  KASSA_MASTER_KEY: TEST_MASTER_KEY,
};
const children: ReturnType<typeof spawnKassa>[] = [];
/** Every chain off but ETH, whose node nobody answers: orders need no chain, and nothing goes out. */
const oneUnreachableChain = () => ({
  ...Object.fromEntries(CHAINS.map((c) => [`KASSA_RPC_${c}`, ''])),
  KASSA_RPC_ETH: 'http://127.0.0.1:9/rpc',
});
afterAll(async () => {
  for (const c of children) await sigkill(c);
  await dropPgDatabase(pgAdminUrl(), name);
  rmSync(dir, { recursive: true, force: true });
});

describe('kassa migrate', () => {
  it('sets up a new PostgreSQL database, then finds nothing to do; the SQLite file is not created', async () => {
    await createPgDatabase(pgAdminUrl(), name);
    const refused = kassa(['merchant', 'list'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`the database ${url} is not set up yet: run \`kassa migrate\` first`);
    for (let run = 0; run < 2; run++) {
      const r = kassa(['migrate'], env);
      expect(r.stderr).toContain(`database ${url} is up to date`);
      expect(r.code).toBe(0);
      expect(r.stderr.includes('database migrated')).toBe(run === 0);
    }
    expect(existsSync(sqliteFile)).toBe(false);
  });

  it('migrates the SQLite file when no URL is set', () => {
    const file = join(dir, 'kassa.db');
    const r = kassa(['migrate'], { ...env, KASSA_DB: file, KASSA_DATABASE_URL: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`database ${file} is up to date`);
    expect(existsSync(file)).toBe(true);
  });

  it('refuses a URL of another database engine with a configuration error (exit 2)', () => {
    const r = kassa(['migrate'], { ...env, KASSA_DATABASE_URL: 'mysql://kassa:hunter2secret@db/kassa' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('database.url: must be a PostgreSQL URL');
    expect(r.stderr).not.toContain('hunter2secret');
  });
});

describe('the other commands on PostgreSQL', () => {
  let token = '';

  it('creates and lists a merchant in PostgreSQL', () => {
    const created = kassa(['merchant', 'create', '--kind', 'V3', '--name', 'On PG'], env);
    expect(created.code).toBe(0);
    const merchant = JSON.parse(created.stdout) as { merchantId: string; token: string };
    token = merchant.token;
    const list = kassa(['merchant', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ merchantId: merchant.merchantId, name: 'On PG' }),
    ]);
    expect(existsSync(sqliteFile)).toBe(false);
  });

  it('serves the API on it (kassa api) and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const api = spawnKassa(['api'], {
      ...env,
      PORT: String(port),
      ...oneUnreachableChain(),
    });
    children.push(api);
    let output = '';
    api.stderr?.on('data', (c) => {
      output += c;
    });
    api.stdout?.resume();
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    const res = await fetch(`http://127.0.0.1:${port}/v1/order/createCollection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: envelope(token, { amount: '12.5', symbol: 'USDT', chain: 'ETH', orderId: 'PG-1' }),
    });
    const body = (await res.json()) as { code: number; msg: string; data: { address: string } };
    expect(body.code, body.msg).toBe(200);
    expect(body.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const exited = new Promise<number | null>((resolve) => api.once('exit', (code) => resolve(code)));
    api.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(existsSync(sqliteFile)).toBe(false);
  });

  it('runs the worker (kassa worker) on it, which stops cleanly on SIGTERM', async () => {
    const worker = spawnKassa(['worker'], { ...env, ...oneUnreachableChain(), KASSA_LOG_LEVEL: 'info' });
    children.push(worker);
    let output = '';
    worker.stderr?.resume();
    const started = new Promise<void>((resolve) =>
      worker.stdout?.on('data', (c) => {
        output += c;
        if (output.includes('worker started')) resolve();
      }),
    );
    await started;
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).toContain('worker stopped');
    expect(existsSync(sqliteFile)).toBe(false);
  });
});
