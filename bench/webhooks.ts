/**
 * Webhook delivery benchmark (issue 4): 2,000 events for 200 orders, written by real order
 * transitions (outbox rows, through applyOrderTransitions) while the real worker job delivers them
 * to a receiver in its own process that checks both signatures and answers 200. Writer and worker
 * share one process, as in `kassa start`.
 *
 *   npx tsx bench/webhooks.ts [--orders 200] [--per-order 10] [--merchants 1] [--rate 200]
 *
 * Two runs on fresh databases:
 * - burst: all 2,000 transitions written back to back (10 rounds of 200 in one transaction each);
 *   budget: every event delivered within 10 s of the first transition;
 * - steady: the same volume at `--rate` events/s (a slice every 100 ms, each order moving once per
 *   round); budget: p99 from transition (event createdAt) to delivery (deliveredAt, after the 2xx)
 *   under 1 s.
 * Both also check that every event arrived, each order's events arrived in order, and every
 * signature verified. Exit code 0 when both budgets are met.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { bootstrap } from '../src/bootstrap.ts';
import { updateMerchant } from '../src/db/repositories/merchants.ts';
import { applyOrderTransitions, findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import { webhookEvents } from '../src/db/schema/webhook-events.ts';
import { sqliteOf } from '../src/db/sqlite-store.ts';
import type { Order } from '../src/domain/order.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createCollection } from '../src/services/create-collection.ts';
import { createMerchant, setMerchantCallback } from '../src/services/manage-merchants.ts';
import { MerchantDirectory } from '../src/services/merchant-directory.ts';
import { webhookJobs } from '../workers/jobs/deliver-webhooks.ts';
import { startWorker } from '../workers/main.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '200' },
    'per-order': { type: 'string', default: '10' },
    merchants: { type: 'string', default: '1' },
    rate: { type: 'string', default: '200' },
  },
});
const ORDERS = Number(values.orders);
const PER_ORDER = Number(values['per-order']);
const MERCHANTS = Number(values.merchants);
const RATE = Number(values.rate);
const TOTAL = ORDERS * PER_ORDER;
const SECRET = 'be'.repeat(32);

const receiver = spawn(process.execPath, ['--import', 'tsx', 'bench/webhook-receiver.ts'], {
  env: { ...process.env, WEBHOOK_SECRET: SECRET },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { port } = JSON.parse(
  await new Promise<string>((resolve) => createInterface({ input: receiver.stdout! }).once('line', resolve)),
) as { port: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

async function run(mode: 'burst' | 'steady') {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-bench-webhooks-'));
  const rt = await bootstrap({
    env: {
      KASSA_DB: join(dir, 'kassa.db'),
      KASSA_MNEMONIC: 'test test test test test test test test test test test junk',
      KASSA_MASTER_KEY: '22'.repeat(32),
    },
    overrides: { orders: { collectionTtlSeconds: 24 * 3600 } },
    migrations: 'apply',
    logger: createLogger({ level: 'warn', destination: 2 }),
  });
  const callbackUrl = `http://127.0.0.1:${port}/${mode}`;
  const merchantIds: string[] = [];
  for (let i = 0; i < MERCHANTS; i++) {
    const m = await createMerchant(rt, { kind: 'V3', name: `bench ${i}`, callbackUrl });
    // one receiver verifies everything, so every merchant gets the same webhook secret
    updateMerchant(
      sqliteOf(rt.db),
      m.merchantId,
      { webhookSecretSealed: rt.box!.seal(SECRET, `${m.merchantId}:webhook`) },
      0,
    );
    await setMerchantCallback(rt, m.merchantId, callbackUrl);
    merchantIds.push(m.merchantId);
  }
  const directory = new MerchantDirectory(rt);
  let orders: Order[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const m = (await directory.byId(merchantIds[i % MERCHANTS]!))!;
    const { orderId } = await createCollection(rt, m, {
      amount: '10',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: `B-${i}`,
    });
    orders.push(findOrderByMerchantOrderId(sqliteOf(rt.db), m.id, orderId)!);
  }

  const worker = await startWorker(rt, [webhookJobs]);
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const slice = Math.max(1, Math.round(RATE / 10)); // transitions per 100 ms
  for (let round = 0; round < PER_ORDER; round++) {
    const status = round % 2 === 0 ? 'PENDING' : 'PENDING_CONFIRMATION';
    if (mode === 'burst') {
      orders = applyOrderTransitions(
        sqliteOf(rt.db),
        orders.map((order) => ({ order, patch: { status } })),
        Date.now(),
      );
      await new Promise((r) => setImmediate(r));
      continue;
    }
    const next: Order[] = [];
    for (let from = 0; from < orders.length; from += slice) {
      const due = started + (round * orders.length + from) * (1000 / RATE);
      if (due > Date.now()) await sleep(due - Date.now());
      next.push(
        ...applyOrderTransitions(
          sqliteOf(rt.db),
          orders.slice(from, from + slice).map((order) => ({ order, patch: { status } })),
          Date.now(),
        ),
      );
    }
    orders = next;
  }
  const written = Date.now();
  const count = sqliteOf(rt.db).$client.prepare(
    "SELECT count(*) AS n FROM webhook_events WHERE status = 'delivered'",
  );
  let delivered = 0;
  while (Date.now() < started + 120_000) {
    delivered = (count.get() as { n: number }).n;
    if (delivered >= TOTAL) break;
    await sleep(10);
  }
  const finished = Date.now();
  const cpu = process.cpuUsage(cpuBefore);
  await worker.stop();

  const events = sqliteOf(rt.db).select().from(webhookEvents).all();
  const latencies = events
    .filter((e) => e.deliveredAt !== null)
    .map((e) => (e.deliveredAt as number) - e.createdAt)
    .sort((a, b) => a - b);
  const attempts = (
    sqliteOf(rt.db).$client.prepare('SELECT count(*) AS n FROM webhook_attempts').get() as { n: number }
  ).n;
  const stats = (await (await fetch(`http://127.0.0.1:${port}/stats?path=/${mode}`)).json()) as {
    badSignatures: number;
    arrivals: { eventId: string; path: string }[];
  };
  const arrivals = stats.arrivals.filter((a) => a.path === `/${mode}`);
  const byId = new Map(events.map((e) => [e.id, e]));
  const lastVersion = new Map<string, number>();
  let outOfOrder = 0;
  for (const a of arrivals) {
    const e = byId.get(a.eventId);
    if (!e?.orderRef) continue;
    if ((lastVersion.get(e.orderRef) ?? -1) > e.orderVersion) outOfOrder++;
    lastVersion.set(e.orderRef, e.orderVersion);
  }
  await rt.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    mode,
    rate: mode === 'steady' ? RATE : null,
    events: events.length,
    delivered,
    attempts,
    received: arrivals.length,
    distinctReceived: new Set(arrivals.map((a) => a.eventId)).size,
    outOfOrder,
    badSignatures: stats.badSignatures,
    writeMs: written - started,
    /** CPU of this process (transitions and delivery) per event: less sensitive to other load than wall time. */
    cpuMsPerEvent: Number(((cpu.user + cpu.system) / 1000 / TOTAL).toFixed(3)),
    allDeliveredMs: finished - started,
    latencyMs: {
      p50: pct(latencies, 50),
      p90: pct(latencies, 90),
      p99: pct(latencies, 99),
      max: latencies.at(-1),
    },
  };
}

const loadBefore = loadavg();
const burst = await run('burst');
const steady = await run('steady');
receiver.kill('SIGTERM');

const sound = (r: typeof burst) =>
  r.delivered === TOTAL && r.distinctReceived === TOTAL && r.outOfOrder === 0 && r.badSignatures === 0;
const budget = {
  burstAllWithin10s: sound(burst) && burst.allDeliveredMs <= 10_000,
  steadyP99Under1s: sound(steady) && steady.latencyMs.p99 < 1000,
};
const result = {
  date: new Date().toISOString(),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
  node: process.version,
  loadAverage: { before: loadBefore.map((l) => l.toFixed(2)), after: loadavg().map((l) => l.toFixed(2)) },
  orders: ORDERS,
  eventsPerOrder: PER_ORDER,
  merchants: MERCHANTS,
  burst,
  steady,
  budget,
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.exit(budget.burstAllWithin10s && budget.steadyP99Under1s ? 0 : 1);
