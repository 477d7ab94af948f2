import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../scripts/build.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { freePort } from '../helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { pgAdminUrl } from '../helpers/pg-database.ts';
import { createPgDatabase, dropPgDatabase } from '../helpers/postgres-cluster.ts';
import { envelope } from '../helpers/signing.ts';
import { dockerfileStages, dockerignore, execForm, stageEnv } from './files.ts';

/**
 * The single-file build, built once into a folder outside the checkout (so nothing can resolve from
 * the repository's node_modules), then run the way the Docker image runs it: the runtime stage's
 * ENTRYPOINT + CMD with /app → that folder and /data → a temporary folder, and its HEALTHCHECK.
 */
const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'kassa-bundle-'));
const app = join(work, 'app');
const data = join(work, 'data');
const children: ChildProcess[] = [];
let built: Awaited<ReturnType<typeof buildBundle>>;

const runtime = dockerfileStages(readFileSync(join(root, 'Dockerfile'), 'utf8')).at(-1) ?? [];
const imageEnv = stageEnv(runtime);
/** An image path as it is on this machine. */
const local = (p: string) => p.replace(/^\/app(?=\/|$)/, app).replace(/^\/data(?=\/|$)/, data);

/** The environment of a container: the image's ENV (paths mapped), chains off except ETH, secrets. */
function containerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [k, v] of Object.entries(imageEnv)) env[k] = local(v);
  for (const chain of CHAINS) env[`KASSA_RPC_${chain}`] = '';
  // An RPC nobody answers: the chain stays "connecting", which /readyz must report.
  env.KASSA_RPC_ETH = 'http://127.0.0.1:9/rpc';
  return { ...env, KASSA_MNEMONIC: TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY, ...extra };
}

/** Runs `node app/kassa.mjs …` to completion. */
function kassa(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [join(app, 'kassa.mjs'), ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
    cwd: work,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<Response> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`kassa exited with ${child.exitCode}`);
    try {
      return await fetch(url);
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${url} did not answer`);
}

beforeAll(async () => {
  built = await buildBundle({ outdir: app });
}, 120_000);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('npm run build', () => {
  it('makes one bundle plus the migrations and better-sqlite3, nothing else', () => {
    expect(readdirSync(app).sort()).toEqual(['drizzle', 'kassa.mjs', 'kassa.mjs.LEGAL.txt', 'node_modules']);
    expect(readdirSync(join(app, 'node_modules')).sort()).toEqual([
      'better-sqlite3',
      'bindings',
      'file-uri-to-path',
    ]);
    expect(existsSync(join(app, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    expect(existsSync(join(app, 'drizzle/meta/_journal.json'))).toBe(true);
    expect(existsSync(join(app, 'drizzle/pg/meta/_journal.json'))).toBe(true);
    // Measured, not asserted tightly: the machine is shared (docs: under ~10 s when idle).
    expect(built.ms).toBeLessThan(90_000);
    process.stderr.write(`bundle: ${(built.bundleBytes / 1048576).toFixed(1)} MB in ${built.ms} ms\n`);
  });

  it('is built only from files the Docker build context sends (.dockerignore)', () => {
    const ignore = dockerignore(readFileSync(join(root, '.dockerignore'), 'utf8'));
    const own = built.inputs.filter((f) => !f.startsWith('node_modules/'));
    expect(own).toContain('src/main.ts');
    const needed = [
      ...own,
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'scripts/build.ts',
      'drizzle/meta/_journal.json',
    ];
    expect(needed.filter((f) => ignore.excluded(f))).toEqual([]);
  });

  it('leaves the devnets out: sandbox and demo say to run them from a checkout', () => {
    const own = built.inputs.filter((f) => !f.startsWith('node_modules/'));
    expect(own.filter((f) => f.startsWith('src/devnet/') || f.startsWith('test/'))).toEqual([]);
    expect(built.inputs.filter((f) => /node_modules\/(solc|@foundry-rs)\//.test(f))).toEqual([]);
    expect(readFileSync(join(app, 'kassa.mjs'), 'utf8')).not.toContain('NoReturnToken');
    for (const command of ['sandbox', 'demo']) {
      const r = kassa([command], containerEnv());
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('not part of the production build');
      expect(r.stderr).toContain('npm install && npm start');
    }
  });

  it('imports nothing from outside but Node built-ins and better-sqlite3', () => {
    const text = readFileSync(join(app, 'kassa.mjs'), 'utf8');
    const specs = new Set<string>();
    for (const m of text.matchAll(/^import\s[^;]*?from\s*"([^"]+)";$/gm)) specs.add(m[1] as string);
    for (const m of text.matchAll(/^import\s*"([^"]+)";$/gm)) specs.add(m[1] as string);
    for (const m of text.matchAll(/\b__require\("([^"]+)"\)/g)) specs.add(m[1] as string);
    const builtins = new Set(builtinModules.flatMap((b) => [b, `node:${b}`]));
    expect(specs.has('better-sqlite3')).toBe(true);
    expect([...specs].filter((s) => !builtins.has(s) && s !== 'better-sqlite3')).toEqual([]);
  });
});

describe('the bundle, run as the image runs it', () => {
  let port: number;
  let server: ChildProcess;
  let token: string;
  /** The admin listener's port (metrics, readiness detail), 127.0.0.1 as in the image. */
  let adminPort = 0;

  it('migrates a new database and creates a merchant', () => {
    const env = containerEnv();
    const migrate = kassa(['migrate'], env);
    expect(migrate.stderr).toContain('is up to date');
    expect(migrate.code).toBe(0);
    expect(existsSync(join(data, 'kassa.db'))).toBe(true);
    const created = kassa(['merchant', 'create', '--kind', 'V3', '--name', 'Bundle'], env);
    expect(created.code).toBe(0);
    token = (JSON.parse(created.stdout) as { token: string }).token;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves /healthz with the Dockerfile’s ENTRYPOINT + CMD, and the HEALTHCHECK passes', async () => {
    port = await freePort();
    adminPort = await freePort();
    const command = [
      ...execForm(runtime.find((i) => i.op === 'ENTRYPOINT')?.args ?? ''),
      ...execForm(runtime.find((i) => i.op === 'CMD')?.args ?? ''),
    ].map(local);
    expect(command.slice(0, 1)).toEqual(['node']);
    server = spawn(process.execPath, command.slice(1), {
      env: containerEnv({ PORT: String(port), KASSA_ADMIN_PORT: String(adminPort) }),
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    const res = await waitFor(`http://127.0.0.1:${port}/healthz`, server);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });

    const health = runtime.find((i) => i.op === 'HEALTHCHECK')?.args ?? '';
    const check = execForm(/\bCMD\s+(\[.*\])$/.exec(health)?.[1] ?? '[]');
    expect(check[0]).toBe('node');
    const ok = spawnSync(process.execPath, check.slice(1), { env: { PORT: String(port) }, timeout: 10_000 });
    expect(ok.status).toBe(0);
    const down = spawnSync(process.execPath, check.slice(1), { env: { PORT: '9' }, timeout: 10_000 });
    expect(down.status).toBe(1);
  });

  it('takes a signed createCollection and reports the unreachable chain on the admin /readyz', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/order/createCollection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: envelope(token, { amount: '12.5', symbol: 'USDT', chain: 'ETH', orderId: 'B-1' }),
    });
    const body = (await res.json()) as { code: number; data: { address: string; paymentUrl: string } };
    expect(body.code).toBe(200);
    expect(body.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(body.data.paymentUrl).toContain('orderId=B-1');

    const bare = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(bare.status).toBe(503);
    expect(await bare.json()).toEqual({ status: 'not_ready' });
    const ready = await fetch(`http://127.0.0.1:${adminPort}/readyz`);
    expect(ready.status).toBe(503);
    const detail = (await ready.json()) as {
      database: { writable: boolean };
      chains: { chain: string; state: string }[];
    };
    expect(detail.database.writable).toBe(true);
    expect(detail.chains).toMatchObject([{ chain: 'ETH', state: 'connecting' }]);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
    expect(metrics).toContain('kassa_orders{chain="ETH",type="COLLECTION",status="INIT"} 1');
    expect(metrics).toContain('kassa_rpc_errors_total{chain="ETH",url="http://127.0.0.1:9/rpc"}');
  });

  it('stops cleanly on SIGTERM (docker stop)', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('migrates a PostgreSQL database (KASSA_DATABASE_URL) and runs commands on it, never the SQLite file', async () => {
    const name = `kassa_bundle_${Date.now().toString(36)}`;
    await createPgDatabase(pgAdminUrl(), name);
    try {
      const url = new URL(pgAdminUrl());
      url.pathname = `/${name}`;
      const env = containerEnv({ KASSA_DATABASE_URL: url.toString(), KASSA_DB: join(work, 'pg-unused.db') });
      const migrate = kassa(['migrate'], env);
      expect(migrate.stderr).toContain(`database ${url} is up to date`);
      expect(migrate.code).toBe(0);
      const created = kassa(['merchant', 'create', '--kind', 'V3', '--name', 'On PostgreSQL'], env);
      expect(created.code).toBe(0);
      const list = kassa(['merchant', 'list', '--json'], env);
      expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name: 'On PostgreSQL' })]);
      expect(existsSync(join(work, 'pg-unused.db'))).toBe(false);
    } finally {
      await dropPgDatabase(pgAdminUrl(), name);
    }
  });

  it('takes a JSON config, and refuses a .ts config with a way out', () => {
    const json = join(work, 'kassa.json');
    writeFileSync(json, JSON.stringify({ logLevel: 'warn' }));
    expect(kassa(['merchant', 'list', '--json', '--config', json], containerEnv()).code).toBe(0);
    const bad = kassa(
      ['merchant', 'list', '--config', join(root, 'wrangler-free.config.ts')],
      containerEnv(),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('cannot load the TypeScript config');
    expect(bad.stderr).toContain('JSON');
    const badInline = kassa(['start', `--config=${join(work, 'x.mts')}`], containerEnv());
    expect(badInline.code).toBe(2);
  });
});
