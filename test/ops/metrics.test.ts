import { afterEach, describe, expect, it } from 'vitest';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { recordWebhookAttempt } from '../../src/db/repositories/webhook-events.ts';
import { insertWebhookEvent } from '../../src/db/repositories/webhook-resend.ts';
import { CHAINS, type Chain } from '../../src/domain/chains.ts';
import { createAdminApp } from '../../src/http/admin-app.ts';
import { PrometheusText } from '../../src/services/prometheus-text.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';

function only(on: Chain[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const chains: Record<string, unknown> = {};
  for (const chain of CHAINS) chains[chain] = { enabled: on.includes(chain) };
  return { chains, ...extra };
}

/**
 * A strict reader of the text format: every line is a HELP, a TYPE or a sample of the family
 * announced last; returns samples as `name{labels}` → value.
 */
function parse(text: string): Map<string, number> {
  expect(text.endsWith('\n')).toBe(true);
  const out = new Map<string, number>();
  let family = '';
  for (const line of text.trimEnd().split('\n')) {
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+$/.exec(line);
    if (help) {
      family = help[1] as string;
      continue;
    }
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (gauge|counter)$/.exec(line);
    if (type) {
      expect(type[1]).toBe(family);
      if (type[2] === 'counter') expect(family).toMatch(/_total$/);
      continue;
    }
    const sample =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.e+]+|NaN|[+-]Inf)$/.exec(
        line,
      );
    expect(sample, `not a sample line: ${line}`).not.toBeNull();
    expect(sample?.[1]).toBe(family);
    out.set(`${sample?.[1]}${sample?.[2] ?? ''}`, Number(sample?.[3]));
  }
  return out;
}

async function scrape(h: Harness, headers: Record<string, string> = {}) {
  const res = await h.admin.request('/metrics', { headers });
  return { res, samples: res.status === 200 ? parse(await res.text()) : new Map<string, number>() };
}

let h: Harness;
afterEach(() => h?.close());

describe('GET /metrics', () => {
  it('counts orders by chain, type and status, and the payout queue per chain', async () => {
    h = await makeHarness(only(['ETH', 'TRON']));
    const m = await h.merchant('V3');
    await h.fund(m, 'TRON', 'USDT', '10');
    for (const orderId of ['c1', 'c2'])
      await h.post('/v1/order/createCollection', m, { amount: '1', symbol: 'USDT', chain: 'ETH', orderId });
    await h.post('/v1/order/createCollection', m, {
      amount: '1',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'c3',
    });
    await h.post('/v1/order/createPayout', m, {
      amount: '2',
      symbol: 'USDT',
      chain: 'TRON',
      receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      orderId: 'p1',
    });
    h.clock.advance(90_000);
    const { res, samples } = await scrape(h);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(samples.get('kassa_orders{chain="ETH",type="COLLECTION",status="INIT"}')).toBe(2);
    expect(samples.get('kassa_orders{chain="TRON",type="COLLECTION",status="INIT"}')).toBe(1);
    expect(samples.get('kassa_orders{chain="TRON",type="PAYOUT",status="INIT"}')).toBe(1);
    expect(samples.get('kassa_payout_queue{chain="TRON"}')).toBe(1);
    expect(samples.get('kassa_payout_queue{chain="ETH"}')).toBe(0);
    expect(samples.get('kassa_payout_queue_oldest_seconds{chain="TRON"}')).toBe(90);
    expect(samples.get('kassa_info{network="mainnet"}')).toBe(1);
  });

  it('shows scanner height, head, lag and readiness per chain', async () => {
    h = await makeHarness(only(['ETH']));
    Object.assign(h.rt.health.get('ETH'), {
      state: 'ready',
      head: 120,
      final: 60,
      scannedTo: 118,
      lastScanAt: h.clock.now(),
    });
    const { samples } = await scrape(h);
    expect(samples.get('kassa_chain_head_height{chain="ETH"}')).toBe(120);
    expect(samples.get('kassa_scanner_height{chain="ETH"}')).toBe(118);
    expect(samples.get('kassa_scanner_final_height{chain="ETH"}')).toBe(60);
    expect(samples.get('kassa_scanner_lag_blocks{chain="ETH"}')).toBe(2);
    expect(samples.get('kassa_scanner_lag_budget_seconds{chain="ETH"}')).toBe(78);
    expect(samples.get('kassa_chain_ready{chain="ETH"}')).toBe(0);
  });

  it('reports RPC requests and errors per chain and redacted URL from the adapters', async () => {
    h = await makeHarness(only([]));
    const fake = (stats: { url: string; requests: number; errors: number }[]) =>
      ({ rpcStatistics: () => stats }) as unknown as ChainAdapter;
    const adapters = new Map<Chain, ChainAdapter>([
      [
        'BSC',
        fake([
          { url: 'https://a.example/***', requests: 10, errors: 3 },
          { url: 'https://b.example/', requests: 4, errors: 0 },
        ]),
      ],
      ['SUI', {} as ChainAdapter],
    ]);
    const app = createAdminApp({ ...h.rt, adapters } as typeof h.rt);
    const samples = parse(await (await app.request('/metrics')).text());
    expect(samples.get('kassa_rpc_requests_total{chain="BSC",url="https://a.example/***"}')).toBe(10);
    expect(samples.get('kassa_rpc_errors_total{chain="BSC",url="https://a.example/***"}')).toBe(3);
    expect(samples.get('kassa_rpc_requests_total{chain="BSC",url="https://b.example/"}')).toBe(4);
    expect([...samples.keys()].filter((k) => k.includes('SUI'))).toEqual([]);
  });

  it('counts webhook events by status and keeps attempt totals across scrapes', async () => {
    h = await makeHarness(only([]));
    const now = h.clock.now();
    const event = (id: string, status: 'pending' | 'delivered' | 'failed') =>
      insertWebhookEvent(h.db, {
        id,
        merchantId: 'mch_x',
        orderRef: null,
        orderVersion: 1,
        notifyType: 'WEBHOOK_TEST',
        data: '{}',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        retryUntil: null,
        lastError: null,
        createdAt: now - (status === 'pending' ? 120_000 : 0),
        deliveredAt: null,
      });
    const attempt = (
      eventId: string,
      statusCode: number | null,
      outcome: 'pending' | 'delivered' | 'failed',
    ) =>
      recordWebhookAttempt(h.db, {
        attempt: {
          eventId,
          attemptedAt: now,
          statusCode,
          latencyMs: 5,
          error: statusCode ? null : 'refused',
        },
        outcome:
          outcome === 'pending' ? { status: 'pending', nextAttemptAt: now + 60_000 } : { status: outcome },
        now,
      });
    event('evt_a', 'delivered');
    event('evt_b', 'failed');
    event('evt_c', 'pending');
    attempt('evt_a', 500, 'pending');
    attempt('evt_a', 200, 'delivered');
    attempt('evt_b', null, 'failed');
    attempt('evt_c', 503, 'pending');
    let { samples } = await scrape(h);
    expect(samples.get('kassa_webhook_events{status="delivered"}')).toBe(1);
    expect(samples.get('kassa_webhook_events{status="failed"}')).toBe(1);
    expect(samples.get('kassa_webhook_events{status="pending"}')).toBe(1);
    expect(samples.get('kassa_webhook_oldest_pending_seconds')).toBe(120);
    expect(samples.get('kassa_webhook_attempts_total{result="delivered"}')).toBe(1);
    expect(samples.get('kassa_webhook_attempts_total{result="failed"}')).toBe(3);
    attempt('evt_c', 204, 'delivered');
    ({ samples } = await scrape(h));
    expect(samples.get('kassa_webhook_attempts_total{result="delivered"}')).toBe(2);
    expect(samples.get('kassa_webhook_attempts_total{result="failed"}')).toBe(3);
    expect(samples.get('kassa_webhook_events{status="pending"}')).toBe(0);
    expect(samples.get('kassa_webhook_oldest_pending_seconds')).toBe(0);
  });

  it('says whether a worker holds the worker lease, and since when, so an alert can fire when none does', async () => {
    h = await makeHarness(only([]));
    let { samples } = await scrape(h);
    expect(samples.get('kassa_worker_lease_live')).toBe(0);
    expect(samples.has('kassa_worker_lease_held_seconds')).toBe(false);
    // a worker takes the lease (as its WorkerLeaseKeeper does), and renews it 90 s later
    const t0 = h.clock.now();
    await h.rt.db.acquireWorkerLease({ name: 'worker', holder: 'box:41:aa', now: t0, ttlMs: 6000 });
    h.clock.advance(90_000);
    await h.rt.db.acquireWorkerLease({
      name: 'worker',
      holder: 'box:41:aa',
      now: h.clock.now(),
      ttlMs: 6000,
    });
    ({ samples } = await scrape(h));
    expect(samples.get('kassa_worker_lease_live')).toBe(1);
    expect(samples.get('kassa_worker_lease_held_seconds')).toBe(90);
    // it dies: no renewal, and its lease runs out
    h.clock.advance(6000);
    ({ samples } = await scrape(h));
    expect(samples.get('kassa_worker_lease_live')).toBe(0);
    expect(samples.has('kassa_worker_lease_held_seconds')).toBe(false);
  });

  it('reports process memory', async () => {
    h = await makeHarness(only([]));
    const { samples } = await scrape(h);
    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(1_000_000);
  });

  it('is served on the admin listener only: the public port answers 404 and shows nothing', async () => {
    h = await makeHarness(only(['ETH']));
    const res = await h.app.request('/metrics');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, msg: 'Not found.', data: null });
    expect((await scrape(h)).samples.get('kassa_info{network="mainnet"}')).toBe(1);
  });

  it('is also on the public port with KASSA_METRICS_TOKEN, and there only for that bearer token', async () => {
    const token = 'c0ffee'.repeat(6);
    h = await makeHarness(only([], { ops: { metricsToken: token } }));
    const publicScrape = (headers: Record<string, string> = {}) => h.app.request('/metrics', { headers });
    expect((await publicScrape()).status).toBe(401);
    expect((await publicScrape()).headers.get('www-authenticate')).toContain('Bearer');
    expect((await publicScrape({ authorization: `Bearer ${token}x` })).status).toBe(401);
    const ok = await publicScrape({ authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(parse(await ok.text()).get('kassa_info{network="mainnet"}')).toBe(1);
    // The admin listener, bound to 127.0.0.1, needs no token.
    expect((await scrape(h)).res.status).toBe(200);
  });

  it('takes the token from KASSA_METRICS_TOKEN, and refuses one too short to be a secret', async () => {
    const { loadConfig } = await import('../../src/config/load.ts');
    const { ConfigError } = await import('../../src/config/config-error.ts');
    process.env.KASSA_METRICS_TOKEN = 'f'.repeat(32);
    try {
      expect((await loadConfig({ env: {} })).ops.metricsToken).toBe('f'.repeat(32));
      process.env.KASSA_METRICS_TOKEN = 'short';
      await expect(loadConfig({ env: {} })).rejects.toThrow(ConfigError);
      delete process.env.KASSA_METRICS_TOKEN;
      expect((await loadConfig({ env: {} })).ops.metricsToken).toBeNull();
    } finally {
      delete process.env.KASSA_METRICS_TOKEN;
    }
  });
});

describe('PrometheusText', () => {
  it('escapes label values and refuses a bad or repeated name', () => {
    const text = new PrometheusText()
      .family('x_total', 'counter', 'help', [{ labels: { url: 'a"b\\c\nd' }, value: 1 }])
      .toString();
    expect(text).toBe('# HELP x_total help\n# TYPE x_total counter\nx_total{url="a\\"b\\\\c\\nd"} 1\n');
    expect(parse(text).size).toBe(1);
    expect(() => new PrometheusText().family('bad-name', 'gauge', 'h', [])).toThrow();
    const t = new PrometheusText().family('a', 'gauge', 'h', []);
    expect(() => t.family('a', 'gauge', 'h', [])).toThrow();
  });
});
