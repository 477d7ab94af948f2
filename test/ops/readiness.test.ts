import { afterEach, describe, expect, it } from 'vitest';
import { recordScan } from '../../src/db/repositories/chain-scan-write.ts';
import { WRITE_PROBE_KEY } from '../../src/db/repositories/ops.ts';
import { getSetting } from '../../src/db/repositories/settings.ts';
import { CHAINS, type Chain } from '../../src/domain/chains.ts';
import { lagBudgetSeconds } from '../../src/services/chain-progress.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';

/** Config with only `on` enabled (an RPC URL nobody is asked: the tests drive the scanner state). */
function only(on: Chain[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const chains: Record<string, unknown> = {};
  for (const chain of CHAINS) chains[chain] = { enabled: on.includes(chain) };
  return { chains, ...extra };
}

interface ChainDetail {
  chain: string;
  source: string;
  state: string | null;
  head: number | null;
  scannedTo: number | null;
  lagBlocks: number | null;
  lagSeconds: number | null;
  lastScanAgeSeconds: number | null;
  budgetSeconds: number;
  lastError: string | null;
  ready: boolean;
  problem: string | null;
}
interface ReadyBody {
  status: string;
  checkedAt: string;
  database: { writable: boolean; ms: number; error: string | null; probedAt: string };
  chains: ChainDetail[];
}

async function readyz(h: Harness): Promise<{ status: number; body: ReadyBody }> {
  const res = await h.admin.request('/readyz');
  return { status: res.status, body: (await res.json()) as ReadyBody };
}

let h: Harness;
afterEach(() => h?.close());

describe('GET /healthz', () => {
  it('answers 200 {status:"ok"} without touching the database', async () => {
    h = await makeHarness(only([]));
    h.db.$client.close();
    const res = await h.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz on the public port', () => {
  it('says only ready or not: no heights, lags or RPC errors for the internet', async () => {
    h = await makeHarness(only(['ETH']));
    Object.assign(h.rt.health.get('ETH'), { state: 'connecting', lastError: 'fetch failed: 10.0.0.7' });
    const res = await h.app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready' });
    Object.assign(h.rt.health.get('ETH'), {
      state: 'ready',
      head: 9,
      scannedTo: 9,
      lastScanAt: h.clock.now(),
      lastError: null,
    });
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    expect((await readyz(h)).body.chains[0]?.chain).toBe('ETH');
  });
});

describe('GET /readyz: the database', () => {
  it('is ready with no chain enabled, after a real write into settings', async () => {
    h = await makeHarness(only([]));
    const r = await readyz(h);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ready');
    expect(r.body.database).toMatchObject({ writable: true, error: null });
    expect(r.body.chains).toEqual([]);
    expect(getSetting(h.db, WRITE_PROBE_KEY)).toBe(String(h.clock.now()));
  });

  it('is not ready (503) when the database refuses writes', async () => {
    h = await makeHarness(only([]));
    h.db.$client.pragma('query_only = ON');
    const r = await readyz(h);
    expect(r.status).toBe(503);
    expect(r.body.status).toBe('not_ready');
    expect(r.body.database.writable).toBe(false);
    expect(r.body.database.error).toMatch(/readonly|read-only/i);
  });

  it('writes at most once a second however often it is probed, and judges chains on every probe', async () => {
    h = await makeHarness(only(['SUI']));
    const first = await readyz(h);
    expect(first.body.chains[0]?.ready).toBe(false);
    Object.assign(h.rt.health.get('SUI'), {
      state: 'ready',
      head: 9,
      scannedTo: 9,
      lastScanAt: h.clock.now(),
    });
    h.clock.advance(500);
    const second = await readyz(h);
    expect(second.body.database.probedAt).toBe(first.body.database.probedAt);
    expect(getSetting(h.db, WRITE_PROBE_KEY)).toBe(String(h.clock.now() - 500));
    expect(second.status).toBe(200);
    expect(second.body.checkedAt).not.toBe(first.body.checkedAt);
    h.clock.advance(500);
    expect((await readyz(h)).body.database.probedAt).not.toBe(first.body.database.probedAt);
    expect(getSetting(h.db, WRITE_PROBE_KEY)).toBe(String(h.clock.now()));
  });
});

describe('GET /readyz: a scanner in this process (kassa start)', () => {
  it('is ready at the head and within budget, with per-chain detail', async () => {
    h = await makeHarness(only(['ETH']));
    const now = h.clock.now();
    recordScan(h.db, {
      chain: 'ETH',
      transfers: [],
      statusChanges: [],
      transitions: [],
      cursor: { height: 100, heightHash: '0xa', heightTime: Math.floor(now / 1000) - 30, finalHeight: 40 },
      now,
    });
    Object.assign(h.rt.health.get('ETH'), {
      state: 'ready',
      head: 100,
      final: 40,
      scannedTo: 100,
      lastScanAt: now - 2000,
    });
    const r = await readyz(h);
    expect(r.status).toBe(200);
    expect(r.body.chains).toEqual([
      {
        chain: 'ETH',
        source: 'worker',
        state: 'ready',
        head: 100,
        scannedTo: 100,
        finalHeight: 40,
        lagBlocks: 0,
        lagSeconds: 0,
        lastScanAgeSeconds: 2,
        budgetSeconds: 78,
        lastError: null,
        ready: true,
        problem: null,
      },
    ]);
  });

  it('is not ready while connecting, and says why', async () => {
    h = await makeHarness(only(['ETH', 'TRON']));
    Object.assign(h.rt.health.get('ETH'), { state: 'connecting', lastError: 'fetch failed' });
    Object.assign(h.rt.health.get('TRON'), { state: 'disabled', lastError: 'wrong chain id' });
    const r = await readyz(h);
    expect(r.status).toBe(503);
    const eth = r.body.chains.find((c) => c.chain === 'ETH');
    expect(eth).toMatchObject({ ready: false, state: 'connecting', lastError: 'fetch failed' });
    expect(eth?.problem).toContain('fetch failed');
    expect(r.body.chains.find((c) => c.chain === 'TRON')?.problem).toContain('disabled');
  });

  it('is not ready when the last scan is older than the budget', async () => {
    h = await makeHarness(only(['SUI']));
    const budget = lagBudgetSeconds(h.rt.config, 'SUI');
    Object.assign(h.rt.health.get('SUI'), {
      state: 'ready',
      head: 5,
      scannedTo: 5,
      lastScanAt: h.clock.now(),
    });
    expect((await readyz(h)).status).toBe(200);
    h.clock.advance((budget + 1) * 1000);
    const r = await readyz(h);
    expect(r.status).toBe(503);
    expect(r.body.chains[0]?.problem).toContain('last scan finished');
  });

  it('is not ready while far behind the head (catching up), with lag in blocks and seconds', async () => {
    h = await makeHarness(only(['TRON']));
    const now = h.clock.now();
    recordScan(h.db, {
      chain: 'TRON',
      transfers: [],
      statusChanges: [],
      transitions: [],
      cursor: { height: 1000, heightHash: 'x', heightTime: Math.floor(now / 1000) - 3600, finalHeight: 990 },
      now,
    });
    Object.assign(h.rt.health.get('TRON'), { state: 'ready', head: 2200, scannedTo: 1000, lastScanAt: now });
    const r = await readyz(h);
    expect(r.status).toBe(503);
    expect(r.body.chains[0]).toMatchObject({ lagBlocks: 1200, lagSeconds: 3600, ready: false });
    expect(r.body.chains[0]?.problem).toContain('behind the head');
  });
});

describe('GET /readyz: the worker in another process (kassa api)', () => {
  it('is not ready before the worker wrote a checkpoint', async () => {
    h = await makeHarness(only(['POLYGON']));
    const r = await readyz(h);
    expect(r.status).toBe(503);
    expect(r.body.chains[0]).toMatchObject({ source: 'checkpoint', state: null, scannedTo: null });
    expect(r.body.chains[0]?.problem).toContain('kassa worker');
  });

  it('judges the checkpoint: block time and write time against the budget', async () => {
    h = await makeHarness(only(['POLYGON']));
    const budget = lagBudgetSeconds(h.rt.config, 'POLYGON');
    const now = h.clock.now();
    recordScan(h.db, {
      chain: 'POLYGON',
      transfers: [],
      statusChanges: [],
      transitions: [],
      cursor: { height: 77, heightHash: 'x', heightTime: Math.floor(now / 1000) - 4, finalHeight: 70 },
      now: now - 1000,
    });
    const r = await readyz(h);
    expect(r.status).toBe(200);
    expect(r.body.chains[0]).toMatchObject({
      source: 'checkpoint',
      scannedTo: 77,
      head: null,
      lagBlocks: null,
      lagSeconds: 4,
      lastScanAgeSeconds: 1,
      ready: true,
    });
    h.clock.advance(budget * 1000);
    const late = await readyz(h);
    expect(late.status).toBe(503);
    expect(late.body.chains[0]?.problem).toContain('advanced the checkpoint');
  });
});

describe('the lag budget', () => {
  it('is 3 poll intervals + a block time + 30 s by default, and configurable', async () => {
    h = await makeHarness(only([]));
    const c = h.rt.config;
    expect(lagBudgetSeconds(c, 'ETH')).toBe(3 * 12 + 12 + 30);
    expect(lagBudgetSeconds(c, 'TRON')).toBe(3 * 3 + 3 + 30);
    expect(lagBudgetSeconds(c, 'SUI')).toBe(33.3);
    await h.close();
    h = await makeHarness(
      only([], {
        ops: { lagBudget: { pollIntervals: 5, slackSeconds: 0 } },
        chains: { ...(only([]).chains as object), BSC: { enabled: false, lagBudgetSeconds: 12 } },
      }),
    );
    expect(lagBudgetSeconds(h.rt.config, 'ETH')).toBe(5 * 12 + 12);
    expect(lagBudgetSeconds(h.rt.config, 'BSC')).toBe(12);
  });
});
