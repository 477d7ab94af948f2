import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../src/devnet/evm/index.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { freePort, kassa, spawnKassa } from '../helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * `kassa api` and `kassa worker` as two processes on one database (what compose runs): the API has
 * no scanner of its own and judges the worker from the checkpoints it writes. ETH on anvil with a
 * block a second, polled every 200 ms, lag budget 4 s.
 */
const dir = mkdtempSync(join(tmpdir(), 'kassa-split-'));
let anvil: AnvilInstance;
let worker: ChildProcess;
let api: ChildProcess;
let env: Record<string, string>;
let base: string;
let admin: string;

interface Ready {
  status: string;
  chains: {
    chain: string;
    source: string;
    scannedTo: number | null;
    ready: boolean;
    problem: string | null;
  }[];
  worker: { holder: string; acquiredAt: string; expiresAt: string; live: boolean } | null;
}

async function readyz(): Promise<{ status: number; body: Ready } | null> {
  try {
    const res = await fetch(`${admin}/readyz`);
    return { status: res.status, body: (await res.json()) as Ready };
  } catch {
    return null;
  }
}

async function until(
  check: (r: { status: number; body: Ready }) => boolean,
  timeoutMs: number,
): Promise<{ status: number; body: Ready }> {
  const end = Date.now() + timeoutMs;
  let last: { status: number; body: Ready } | null = null;
  while (Date.now() < end) {
    last = await readyz();
    if (last && check(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; last /readyz: ${JSON.stringify(last)}`);
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1, blockTime: 1 });
  const config = join(dir, 'kassa.json');
  writeFileSync(config, JSON.stringify({ chains: { ETH: { pollIntervalMs: 200, lagBudgetSeconds: 4 } } }));
  env = {
    KASSA_DB: join(dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_NETWORK: 'mainnet',
    ...Object.fromEntries(CHAINS.map((c) => [`KASSA_RPC_${c}`, ''])),
    KASSA_RPC_ETH: anvil.url,
  };
  expect(kassa(['migrate', '--config', config], env).code).toBe(0);
  const port = await freePort();
  const adminPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  admin = `http://127.0.0.1:${adminPort}`;
  api = spawnKassa(['api', '--config', config], {
    ...env,
    PORT: String(port),
    KASSA_ADMIN_PORT: String(adminPort),
  });
  worker = spawnKassa(['worker', '--config', config], env);
}, 60_000);

afterAll(async () => {
  api?.kill('SIGKILL');
  worker?.kill('SIGKILL');
  await anvil?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('readiness with the worker in another process', () => {
  it('is ready once the worker’s checkpoint follows the chain, judged from the database', async () => {
    const r = await until((x) => x.status === 200, 45_000);
    expect(r.body.status).toBe('ready');
    // The public port says the same, without the detail.
    const pub = await fetch(`${base}/readyz`);
    expect(pub.status).toBe(200);
    expect(await pub.json()).toEqual({ status: 'ready' });
    expect(r.body.chains).toHaveLength(1);
    expect(r.body.chains[0]).toMatchObject({ chain: 'ETH', source: 'checkpoint', ready: true });
    expect(r.body.chains[0]?.scannedTo).toBeGreaterThan(0);
  });

  it('names the worker process that holds the lease, from the database', async () => {
    const r = await until((x) => x.body.worker?.live === true, 15_000);
    // host:pid:random, the same id the worker's own log lines carry
    expect(r.body.worker?.holder).toContain(`:${worker.pid}:`);
    const { acquiredAt, expiresAt } = r.body.worker ?? { acquiredAt: '', expiresAt: '' };
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.parse(acquiredAt));
  });

  it('stops being ready when the worker dies, and says the checkpoint stopped moving', async () => {
    worker.kill('SIGKILL');
    const r = await until((x) => x.status === 503, 15_000);
    expect(r.body.status).toBe('not_ready');
    expect(r.body.chains[0]?.problem).toMatch(/advanced the checkpoint|last scanned block/);
    // its lease, never released, runs out within the lease's 6 s
    const dead = await until((x) => x.body.worker?.live === false, 15_000);
    expect(dead.body.worker?.holder).toContain(`:${worker.pid}:`);
  });
});
