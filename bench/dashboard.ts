/**
 * Dashboard benchmark (issue 17): the orders list and search with 1,000,000 orders in SQLite, as
 * an operator gets them: GET /admin/orders?… over a real socket, signed in, page rendered (each
 * request's time from sending it to the last byte), and the service call alone beside it.
 *
 *   npx tsx bench/dashboard.ts [--orders 1000000] [--db /tmp/kassa-dashboard-bench.db] [--runs 20]
 *
 * The database is seeded once by bench/admin-seed.ts (about 2.5 minutes for a million orders; kept
 * at --db and reused while its order count matches) through Kassa's real migrations. Cases: the
 * newest page, a page 500,000 rows deep, each filter alone (merchant big and tiny, type, chain with
 * orders and without, token without orders, status common and rare, a day), a combination that
 * matches nothing, and search by orderId, uid, deposit address, payout destination, collection
 * txid and payout txid. Budget: every case under 100 ms. Also reported: the overview's 30-day
 * totals and the money page's deposit sums, with the longest stall of the event loop while they
 * run (they read in slices so that the API in the same process keeps answering).
 */
import { existsSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Hono } from 'hono';
import { mountAdminDashboard } from '../src/admin/dashboard.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { createAdminUser } from '../src/services/admin-accounts.ts';
import { depositTotals } from '../src/services/deposit-totals.ts';
import { orderTotals } from '../src/services/order-totals.ts';
import { searchOrders } from '../src/services/search-orders.ts';
import { serveApp } from '../test/helpers/browser.ts';
import { type SeedResult, seedShop } from './admin-seed.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    db: { type: 'string', default: '/tmp/kassa-dashboard-bench.db' },
    runs: { type: 'string', default: '20' },
  },
});
const orders = Number(values.orders);
const path = values.db as string;
const runs = Number(values.runs);
const NOW = Date.UTC(2026, 10, 25, 12);
const PASSWORD = 'bench password 123';

async function seeded(): Promise<SeedResult> {
  const meta = `${path}.json`;
  if (existsSync(path) && existsSync(meta)) {
    const saved = JSON.parse(
      await import('node:fs').then((fs) => fs.readFileSync(meta, 'utf8')),
    ) as SeedResult & {
      orders: number;
    };
    if (saved.orders === orders) return saved;
  }
  for (const f of [path, `${path}-wal`, `${path}-shm`, meta]) rmSync(f, { force: true });
  const started = performance.now();
  const result = await seedShop(path, { orders, days: 90, now: NOW });
  process.stderr.write(`seeded ${orders} orders in ${Math.round((performance.now() - started) / 1000)} s\n`);
  (await import('node:fs')).writeFileSync(meta, JSON.stringify({ ...result, orders }));
  return result;
}

const seed = await seeded();
const rt = await bootstrap({
  env: { KASSA_DB: path, KASSA_MASTER_KEY: '22'.repeat(32) },
  migrations: 'require',
  logger: (await import('../src/lib/logger.ts')).silentLogger(),
  clock: { now: () => NOW },
  overrides: { trustProxy: false },
});
const app = new Hono();
mountAdminDashboard(app, rt);
const served = await serveApp(app);
try {
  await createAdminUser(rt, { email: 'bench@shop.example', role: 'admin', password: PASSWORD }).catch(
    () => null,
  );
  const login = await fetch(`${served.url}/admin/login`);
  const pre = (login.headers.getSetCookie()[0] as string).split(';')[0] as string;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] as string;
  const signIn = await fetch(`${served.url}/admin/login`, {
    method: 'POST',
    headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, email: 'bench@shop.example', password: PASSWORD, next: '/admin' }),
    redirect: 'manual',
  });
  const cookie = (signIn.headers.getSetCookie()[0] as string).split(';')[0] as string;
  const [big, , , , tiny] = seed.merchants;
  const s = seed.samples;
  const deep = `${Date.parse('2026-10-11T00:00:00Z')}.${s.deepCursor}`;
  const cases: [string, Record<string, string>][] = [
    ['newest page', {}],
    ['page 500,000 rows deep', { after: deep }],
    ['merchant (60 % of orders)', { merchant: big as string }],
    ['merchant (0.1 %)', { merchant: tiny as string }],
    ['type PAYOUT', { type: 'PAYOUT' }],
    ['chain SUI', { chain: 'SUI' }],
    ['chain with no orders', { chain: 'AVAX_C_CHAIN' }],
    ['token with no orders', { symbol: 'DAI' }],
    ['status SUCCESS', { status: 'SUCCESS' }],
    ['status FAILED (0.6 %)', { status: 'FAILED' }],
    ['open orders', { status: 'open' }],
    ['one day', { from: '2026-10-01', to: '2026-10-01' }],
    [
      'no match: SUI + tiny merchant + PAYOUT + FAILED',
      { chain: 'SUI', merchant: tiny as string, type: 'PAYOUT', status: 'FAILED' },
    ],
    ['search orderId', { q: s.orderId }],
    ['search uid', { q: s.uid }],
    ['search deposit address', { q: s.address }],
    ['search payout destination', { q: s.receiveAddress }],
    ['search collection txid', { q: s.collectionTxid }],
    ['search payout txid (upper case)', { q: s.payoutTxid.toUpperCase().replace('0X', '0x') }],
    ['search with no match', { q: 'INV-does-not-exist' }],
  ];
  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
    return {
      p50: +at(0.5).toFixed(1),
      p95: +at(0.95).toFixed(1),
      max: +(sorted.at(-1) as number).toFixed(1),
    };
  };
  const results = [];
  for (const [name, query] of cases) {
    const qs = new URLSearchParams(query).toString();
    const http: number[] = [];
    const service: number[] = [];
    let rows = 0;
    let partial = false;
    for (let i = 0; i < runs + 2; i++) {
      const t0 = performance.now();
      const res = await fetch(`${served.url}/admin/orders?${qs}`, { headers: { cookie } });
      const html = await res.text();
      const t1 = performance.now();
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
      const t2 = performance.now();
      const page = await searchOrders(rt, query);
      const t3 = performance.now();
      rows = page.orders.length;
      partial = page.partial;
      if ((html.match(/data-order="/g) ?? []).length !== rows)
        throw new Error(`${name}: page and service differ`);
      if (i >= 2) {
        http.push(t1 - t0);
        service.push(t3 - t2);
      }
    }
    results.push({ case: name, rows, partial, httpMs: stats(http), serviceMs: stats(service) });
  }
  const slowest = Math.max(...results.map((r) => r.httpMs.max));
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let t = performance.now();
  const totals = await orderTotals(rt);
  const totalsMs = performance.now() - t;
  t = performance.now();
  const deposits = await depositTotals(rt);
  const depositsMs = performance.now() - t;
  loop.disable();
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
        loadAverage1m: +(loadavg()[0] as number).toFixed(2),
        orders,
        runsPerCase: runs,
        cases: results,
        budget: { underMs: 100, slowestHttpMaxMs: slowest, verdict: slowest < 100 ? 'met' : 'MISSED' },
        overview: {
          totals30dMs: Math.round(totalsMs),
          ordersIn30d: totals['30d'].reduce((n, r) => n + r.count, 0),
          depositSumsMs: Math.round(depositsMs),
          transfers: deposits.reduce((n, d) => n + d.transfers, 0),
          longestEventLoopStallMs: +(loop.max / 1e6).toFixed(1),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await served.close();
  await rt.close();
}
