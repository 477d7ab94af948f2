/**
 * Soak (issue 14): Kassa under continuous business and repeated crashes, then every invariant
 * checked. Not run in CI.
 *
 *   npx tsx bench/soak.ts --minutes 30 [--seed 14] [--keep]
 *
 * Local chains as the sandbox runs them (anvil for ETH with 3 confirmations, the fake TRON node
 * with 1 s blocks, the fake Sui node with 250 ms checkpoints), Kassa as real processes on one
 * SQLite database: `kassa api` + `kassa worker`, or `kassa start`, switched every few kills. For
 * `--minutes`, one driver:
 * - creates collections on ETH (USDT, USDC), TRON (USDT) and SUI (USDC), each paid in full, in two
 *   parts, late (after it expired), or not at all, by the sandbox customer's key;
 * - asks for payouts to fresh addresses (the merchants' ledgers are funded first, as
 *   `kassa ledger adjust` does);
 * - receives the webhooks on a receiver that checks both signatures and fails now and then
 *   (500, no answer, a dropped connection);
 * - SIGKILLs the worker (or `kassa start`) at random moments and starts it again.
 * Then it stops the business, lets Kassa drain with a receiver that always answers, and checks:
 * every collection paid in time SUCCESS exactly once with the amount paid (late and unpaid ones
 * EXPIRED, late payments recorded and not credited; an order whose payment failed on the
 * customer's side, so may or may not be on chain, may end either way); no transfer credited twice; every payout
 * SUCCESS with exactly one on-chain transfer (the fresh receiver holds exactly its amount); every
 * webhook delivered, and an order's events never sent before the previous one was acknowledged;
 * every ledger balance equal to the sum of its entries and to what the orders moved. Prints the
 * figures as JSON; exit code 0 when every invariant holds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { privateKeyToAccount } from 'viem/accounts';
import { bootstrap } from '../src/bootstrap.ts';
import { sqliteOf } from '../src/db/sqlite-store.ts';
import { payAsCustomer } from '../src/devnet/pay-as-customer.ts';
import { SANDBOX_CUSTOMER, startSandboxChains } from '../src/devnet/sandbox.ts';
import { tronAddressOf } from '../src/devnet/tron/customer.ts';
import { createKeyRing } from '../src/keys/key-ring.ts';
import { silentLogger } from '../src/lib/logger.ts';
import type { Deps } from '../src/services/deps.ts';
import { adjustLedger } from '../src/services/manage-ledger.ts';
import { createMerchant, type MerchantCreated } from '../src/services/manage-merchants.ts';
import { freePort } from '../test/helpers/cli.ts';
import { envelope } from '../test/helpers/signing.ts';
import { verifyWebhook } from '../test/helpers/webhook-receiver.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    seed: { type: 'string', default: '14' },
    keep: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const SEED = Number(values.seed);
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const MASTER_KEY = '22'.repeat(32);
const TTL_SECONDS = 60;
const KASSA_BIN = join(import.meta.dirname, '../bin/kassa.mjs');

// --- a seeded random source: the same seed, the same business and the same kill schedule -------
let state = SEED >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (lo: number, hi: number) => lo + random() * (hi - lo);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string, extra: Record<string, unknown> = {}) =>
  process.stderr.write(
    `${new Date().toISOString()} ${msg} ${Object.keys(extra).length ? JSON.stringify(extra) : ''}\n`,
  );

// --- chains ------------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'kassa-soak-'));
const keys = createKeyRing(MNEMONIC);
const hotWallets: Record<string, string> = {};
for (const chain of ['ETH', 'TRON', 'SUI'] as const) hotWallets[chain] = keys.hotWallet(chain).address;
const chains = await startSandboxChains({ dataDir: dir, hotWallets, evm: ['ETH'], tron: true, sui: true });
const eth = chains.chains.ETH as NonNullable<(typeof chains.chains)['ETH']>;
const tron = chains.chains.TRON as NonNullable<(typeof chains.chains)['TRON']>;
const sui = chains.chains.SUI as NonNullable<(typeof chains.chains)['SUI']>;
// anvil mines a block per transaction; a block a second gives ETH's 3 confirmations something to count
const rpc = (url: string, method: string, params: unknown[] = []) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then((r) => r.json() as Promise<{ result?: unknown; error?: unknown }>);
const miner = setInterval(() => void rpc(eth.rpc, 'evm_mine').catch(() => undefined), 1000);

/** What is collected: chain, symbol, token contract (or coin type), decimals. */
const TOKENS = [
  { chain: 'ETH', symbol: 'USDT', ...(eth.tokens.USDT as { contract: string; decimals: number }) },
  { chain: 'ETH', symbol: 'USDC', ...(eth.tokens.USDC as { contract: string; decimals: number }) },
  { chain: 'TRON', symbol: 'USDT', ...(tron.tokens.USDT as { contract: string; decimals: number }) },
  { chain: 'SUI', symbol: 'USDC', ...(sui.tokens.USDC as { contract: string; decimals: number }) },
] as const;
type Token = (typeof TOKENS)[number];

// --- Kassa's configuration, database and merchants ---------------------------------------------
const port = await freePort();
const configFile = join(dir, 'kassa.json');
const config = chains.config as { chains: Record<string, Record<string, unknown>> };
for (const chain of ['ETH', 'TRON', 'SUI'])
  Object.assign(config.chains[chain] as object, { pollIntervalMs: 500 });
Object.assign(config.chains.ETH as object, { confirmations: 3 });
writeFileSync(
  configFile,
  JSON.stringify({
    ...config,
    baseUrl: `http://127.0.0.1:${port}`,
    orders: { collectionTtlSeconds: TTL_SECONDS, payoutTtlSeconds: 3600, handlingFee: '0.00' },
    webhooks: {
      timeoutMs: 2000,
      retryBaseMs: 500,
      retryMaxDelayMs: 5000,
      retryForSeconds: 86_400,
      pollIntervalMs: 200,
      allowPrivateTargets: true,
    },
    worker: { expireIntervalMs: 1000, payoutIntervalMs: 500 },
    admin: { dashboard: 'off' },
    rateLimits: {
      createCollection: { limit: 10_000, windowSeconds: 1 },
      createPayout: { limit: 10_000, windowSeconds: 1 },
      status: { limit: 10_000, windowSeconds: 1 },
    },
  }),
);
const env = {
  PATH: process.env.PATH ?? '',
  KASSA_DB: join(dir, 'kassa.db'),
  KASSA_MNEMONIC: MNEMONIC,
  KASSA_MASTER_KEY: MASTER_KEY,
  KASSA_LOG_LEVEL: 'warn',
  KASSA_ADMIN_PORT: '0',
  PORT: String(port),
};
const openRuntime = () =>
  bootstrap({ env, configFile, migrations: 'apply', logger: silentLogger(), chains: false });

const receiver = await startReceiver();
const FUNDING = '1000000';
const merchants: MerchantCreated[] = [];
{
  const rt = await openRuntime();
  for (const kind of ['V3', 'V2'] as const) {
    const m = await createMerchant(rt, { kind, name: `soak ${kind}`, callbackUrl: receiver.url });
    merchants.push(m);
    receiver.secrets.set(m.merchantId, m.webhookSecret);
    for (const t of TOKENS) {
      if (t.chain === 'ETH' && t.symbol === 'USDC') continue; // payouts are paid in USDT on ETH
      await adjustLedger(rt, {
        merchantId: m.merchantId,
        chain: t.chain,
        symbol: t.symbol,
        amount: FUNDING,
        reason: 'soak: prefunded payouts',
      });
    }
  }
  await rt.close();
}

// --- the webhook receiver: checks signatures, fails now and then ---------------------------------
interface Arrival {
  eventId: string;
  orderId: string;
  merchantId: string;
  notifyType: string;
  answered: number | 'hang' | 'drop';
  at: number;
}
function startReceiver() {
  const arrivals: Arrival[] = [];
  const secrets = new Map<string, string>();
  const hanging = new Set<ServerResponse>();
  const counts = { received: 0, badSignature: 0, failed500: 0, hung: 0, dropped: 0 };
  let failing = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      counts.received++;
      const text = Buffer.concat(chunks).toString('utf8');
      const merchantId = String(req.headers['x-merchant-id'] ?? '');
      let parsed: ReturnType<typeof verifyWebhook> | null = null;
      for (const [id, secret] of secrets) {
        if (merchantId && id !== merchantId) continue;
        try {
          parsed = verifyWebhook(secret, {
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            body: text,
            at: Date.now(),
          });
          break;
        } catch {
          // another merchant's secret, or a bad signature
        }
      }
      if (!parsed) {
        counts.badSignature++;
        res.writeHead(400).end();
        return;
      }
      const roll = random();
      const answer: Arrival['answered'] = !failing
        ? 200
        : roll < 0.08
          ? 500
          : roll < 0.1
            ? 'hang'
            : roll < 0.12
              ? 'drop'
              : 200;
      arrivals.push({
        eventId: parsed.eventId,
        orderId: String(parsed.data.orderId),
        merchantId: merchantId || '?',
        notifyType: parsed.notifyType,
        answered: answer,
        at: Date.now(),
      });
      if (answer === 'hang') {
        counts.hung++;
        hanging.add(res);
      } else if (answer === 'drop') {
        counts.dropped++;
        req.socket.destroy();
      } else {
        if (answer === 500) counts.failed500++;
        res.writeHead(answer).end(answer === 200 ? 'ok' : 'try later');
      }
    });
  });
  return new Promise<{
    url: string;
    arrivals: Arrival[];
    secrets: Map<string, string>;
    counts: typeof counts;
    stopFailing(): void;
    close(): Promise<void>;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`,
        arrivals,
        secrets,
        counts,
        stopFailing: () => {
          failing = false;
        },
        close: () => {
          for (const r of hanging) r.destroy();
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}

// --- Kassa's processes ---------------------------------------------------------------------------
type Mode = 'split' | 'start';
const procs: { api: ChildProcess | null; worker: ChildProcess | null; start: ChildProcess | null } = {
  api: null,
  worker: null,
  start: null,
};
const tails: string[] = [];
function spawnKassa(command: 'api' | 'worker' | 'start'): ChildProcess {
  const child = spawn(process.execPath, [KASSA_BIN, command, '--config', configFile], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (c: Buffer) => {
    for (const line of String(c).split('\n').filter(Boolean)) {
      tails.push(`${command}: ${line.slice(0, 400)}`);
      if (tails.length > 200) tails.shift();
    }
  });
  return child;
}
async function stop(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
async function apiUp(): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`the API did not come up: ${tails.slice(-5).join(' | ')}`);
}
async function run(mode: Mode): Promise<void> {
  if (mode === 'split') {
    await stop(procs.start, 'SIGTERM');
    procs.start = null;
    if (!procs.api || procs.api.exitCode !== null) procs.api = spawnKassa('api');
    if (!procs.worker || procs.worker.exitCode !== null || procs.worker.signalCode !== null)
      procs.worker = spawnKassa('worker');
  } else {
    await stop(procs.worker, 'SIGTERM');
    await stop(procs.api, 'SIGTERM');
    procs.api = procs.worker = null;
    if (!procs.start || procs.start.exitCode !== null || procs.start.signalCode !== null)
      procs.start = spawnKassa('start');
  }
  await apiUp();
}

// --- the merchant's API calls: retried while Kassa is down or busy ------------------------------
async function post<T>(
  path: string,
  m: MerchantCreated,
  data: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  const end = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-merchant-id': m.merchantId },
        body: envelope(m.token, data),
      });
      const body = (await res.json()) as { code: number; msg: string; data: T };
      if (body.code !== 503 && body.code !== 429) return body;
    } catch {
      // Kassa is being restarted
    }
    if (Date.now() > end) throw new Error(`${path} did not answer for 2 minutes`);
    await sleep(250);
  }
}

// --- the business --------------------------------------------------------------------------------
type Plan = 'full' | 'parts' | 'late' | 'unpaid';
interface Collection {
  m: MerchantCreated;
  token: Token;
  orderId: string;
  amountBase: bigint;
  plan: Plan;
  paid: { txid: string; amount: bigint; afterExpiry: boolean; at: number }[];
  address?: string;
  expiresAt?: number;
  error?: string;
  /** A payment in time failed on the customer's side: it may or may not have reached the chain. */
  uncertain?: boolean;
}
interface Payout {
  m: MerchantCreated;
  token: Token;
  orderId: string;
  amountBase: bigint;
  to: string;
  askedAt?: number;
  refused?: string;
}
const collections: Collection[] = [];
const payouts: Payout[] = [];
const kills = { worker: 0, start: 0 };
const pending: Promise<void>[] = [];
const customerQueues = new Map<string, Promise<unknown>>();
let paymentErrors = 0;

/** The customer pays (one payment at a time per chain: one key, one nonce sequence). */
function pay(token: Token, to: string, amount: bigint): Promise<string> {
  const chain = chains.chains[token.chain] as NonNullable<(typeof chains.chains)['ETH']>;
  const previous = customerQueues.get(token.chain) ?? Promise.resolve();
  const next = previous.then(() => payAsCustomer(chain, SANDBOX_CUSTOMER, token.contract, to, amount));
  customerQueues.set(
    token.chain,
    next.catch(() => undefined),
  );
  return next;
}

const format = (base: bigint, decimals: number) => {
  const s = base.toString().padStart(decimals + 1, '0');
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return frac ? `${s.slice(0, -decimals)}.${frac}` : s.slice(0, -decimals);
};

/** V2 merchants name their customer (`uid`) on every order. */
const uidOf = (m: MerchantCreated, orderId: string) =>
  m.kind === 'V2' ? { uid: `customer-${orderId}` } : {};

async function collection(c: Collection): Promise<void> {
  const r = await post<{ address: string; expiresAt?: number }>('/v1/order/createCollection', c.m, {
    ...uidOf(c.m, c.orderId),
    chain: c.token.chain,
    symbol: c.token.symbol,
    amount: format(c.amountBase, c.token.decimals),
    orderId: c.orderId,
  });
  if (r.code !== 200) {
    c.error = `${r.code} ${r.msg}`;
    return;
  }
  c.address = r.data.address;
  c.expiresAt = Date.now() + TTL_SECONDS * 1000;
  const payNow = async (amount: bigint, afterExpiry: boolean) => {
    try {
      const txid = await pay(c.token, c.address as string, amount);
      c.paid.push({ txid, amount, afterExpiry, at: Date.now() });
    } catch (error) {
      paymentErrors++;
      if (!afterExpiry) c.uncertain = true;
      log('payment failed', { orderId: c.orderId, error: (error as Error).message.slice(0, 200) });
    }
  };
  switch (c.plan) {
    case 'full':
      await sleep(between(0, 15_000));
      await payNow(c.amountBase, false);
      break;
    case 'parts': {
      const first = (c.amountBase * 4n) / 10n;
      await sleep(between(0, 10_000));
      await payNow(first, false);
      await sleep(between(2_000, 20_000));
      await payNow(c.amountBase - first, false);
      break;
    }
    case 'late':
      await sleep(TTL_SECONDS * 1000 + between(5_000, 20_000));
      await payNow(c.amountBase, true);
      break;
    case 'unpaid':
      break;
  }
}

async function payout(p: Payout): Promise<void> {
  p.askedAt = Date.now();
  const r = await post('/v1/order/createPayout', p.m, {
    ...uidOf(p.m, p.orderId),
    chain: p.token.chain,
    symbol: p.token.symbol,
    amount: format(p.amountBase, p.token.decimals),
    orderId: p.orderId,
    receiveAddress: p.to,
  });
  if (r.code !== 200) p.refused = `${r.code} ${r.msg}`;
}

/** An address nobody used yet: what it holds at the end is what its payout sent. */
function freshReceiver(chain: string): string {
  const key = randomBytes(32).toString('hex');
  if (chain === 'ETH') return privateKeyToAccount(`0x${key}`).address;
  if (chain === 'TRON') return tronAddressOf(key);
  return `0x${key}`;
}

const started = Date.now();
const load = { start: loadavg(), end: [0, 0, 0] };
log('soak starting', { minutes: MINUTES, seed: SEED, dir, port });
await run('split');
let mode: Mode = 'split';
const until = started + MINUTES * 60_000;
let n = 0;

const business = (async () => {
  let nextPayout = Date.now();
  while (Date.now() < until) {
    const plan = pick<Plan>(['full', 'full', 'full', 'full', 'parts', 'parts', 'late', 'unpaid']);
    const token = pick(TOKENS);
    const c: Collection = {
      m: pick(merchants),
      token,
      orderId: `soak-c-${++n}`,
      amountBase: BigInt(Math.round(between(1, 50) * 100)) * 10n ** BigInt(token.decimals - 2),
      plan,
      paid: [],
    };
    collections.push(c);
    pending.push(collection(c));
    if (Date.now() >= nextPayout) {
      const t = pick(TOKENS.filter((x) => !(x.chain === 'ETH' && x.symbol === 'USDC')));
      const p: Payout = {
        m: pick(merchants),
        token: t,
        orderId: `soak-p-${++n}`,
        amountBase: BigInt(Math.round(between(0.5, 5) * 100)) * 10n ** BigInt(t.decimals - 2),
        to: freshReceiver(t.chain),
      };
      payouts.push(p);
      pending.push(payout(p));
      nextPayout = Date.now() + between(2_000, 6_000);
    }
    await sleep(between(800, 2_200));
  }
})();

const killer = (async () => {
  let killsInMode = 0;
  while (Date.now() < until) {
    await sleep(between(10_000, 40_000));
    if (Date.now() >= until) break;
    if (mode === 'split') {
      await stop(procs.worker, 'SIGKILL');
      kills.worker++;
    } else {
      await stop(procs.start, 'SIGKILL');
      kills.start++;
    }
    log('killed', { mode, kills });
    await sleep(between(200, 3_000));
    if (++killsInMode >= 2) {
      mode = mode === 'split' ? 'start' : 'split';
      killsInMode = 0;
    }
    await run(mode);
  }
})();

await Promise.all([business, killer]);
const businessEnded = Date.now();
log('business over; draining', { collections: collections.length, payouts: payouts.length });
await Promise.all(pending);
await run('split');
receiver.stopFailing();

// --- drain: wait until every order is where it must end ---------------------------------------
const rt: Deps = await openRuntime();
const db = sqliteOf(rt.db).$client;
type Row = Record<string, unknown>;
const q = <T = Row>(sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as T[];
const orderRow = (m: MerchantCreated, orderId: string) =>
  db.prepare('SELECT * FROM orders WHERE merchant_id = ? AND order_id = ?').get(m.merchantId, orderId) as
    | Row
    | undefined;

/**
 * What the order must end as: SUCCESS when what was paid before it expired covers it, EXPIRED when
 * not; either, for an order whose payment failed on the customer's side (it may have gone out).
 */
function expectedStatus(c: Collection, status?: unknown): 'SUCCESS' | 'EXPIRED' {
  if (c.uncertain && (status === 'SUCCESS' || status === 'EXPIRED')) return status;
  const paidInTime = c.paid.filter((p) => !p.afterExpiry).reduce((s, p) => s + p.amount, 0n);
  return paidInTime >= c.amountBase ? 'SUCCESS' : 'EXPIRED';
}
function outstanding(): number {
  let open = 0;
  for (const c of collections) {
    if (c.error) continue;
    const row = orderRow(c.m, c.orderId);
    if (row?.status !== expectedStatus(c, row?.status)) open++;
  }
  for (const p of payouts) {
    if (p.refused) continue;
    const row = orderRow(p.m, p.orderId);
    if (row?.status !== 'SUCCESS' && row?.status !== 'FAILED') open++;
  }
  open += q<{ n: number }>("SELECT count(*) AS n FROM webhook_events WHERE status = 'pending'")[0]?.n ?? 0;
  // every payment made, late ones included, must have been read from its chain
  const recorded = new Set(q<{ txid: string }>('SELECT txid FROM chain_transfers').map((r) => r.txid));
  for (const c of collections) for (const p of c.paid) if (!recorded.has(p.txid)) open++;
  return open;
}
const drainEnd = Date.now() + 10 * 60_000;
let open = outstanding();
while (open > 0 && Date.now() < drainEnd) {
  await sleep(2_000);
  open = outstanding();
}
const drainedAt = Date.now();
await stop(procs.worker, 'SIGTERM');
await stop(procs.api, 'SIGTERM');
await stop(procs.start, 'SIGTERM');
clearInterval(miner);
load.end = loadavg();

// --- invariants ------------------------------------------------------------------------------------
const problems: string[] = [];
const problem = (text: string) => {
  if (problems.length < 200) problems.push(text);
};

// collections
const byPlan: Record<string, number> = {};
for (const c of collections) {
  byPlan[c.plan] = (byPlan[c.plan] ?? 0) + 1;
  if (c.error) {
    problem(`${c.orderId}: createCollection refused: ${c.error}`);
    continue;
  }
  const row = orderRow(c.m, c.orderId);
  const want = expectedStatus(c, row?.status);
  const paidInTime = c.paid.filter((p) => !p.afterExpiry).reduce((s, p) => s + p.amount, 0n);
  if (row?.status !== want) problem(`${c.orderId} (${c.plan}): ${row?.status}, expected ${want}`);
  if (want === 'SUCCESS' && !c.uncertain && BigInt(String(row?.actual_amount_base ?? '0')) !== paidInTime)
    problem(`${c.orderId}: actualAmount ${row?.actual_amount_base}, paid ${paidInTime}`);
  const successes = q<{ n: number }>(
    "SELECT count(*) AS n FROM webhook_events WHERE order_ref = ? AND notify_type = 'ORDER_SUCCESS'",
    row?.id,
  )[0]?.n;
  if (successes !== (want === 'SUCCESS' ? 1 : 0)) problem(`${c.orderId}: ${successes} ORDER_SUCCESS events`);
  for (const p of c.paid) {
    const rows = q<Row>(
      "SELECT * FROM chain_transfers WHERE chain = ? AND txid = ? AND status != 'orphaned'",
      c.token.chain,
      p.txid,
    );
    if (rows.length !== 1) problem(`${c.orderId}: payment ${p.txid} recorded ${rows.length} times`);
    else if (p.afterExpiry && (rows[0]?.order_ref !== null || rows[0]?.unattributed_reason !== 'late'))
      problem(
        `${c.orderId}: late payment ${p.txid} attributed (${rows[0]?.order_ref}, ${rows[0]?.unattributed_reason})`,
      );
  }
}
for (const dup of q<Row>(
  "SELECT chain, txid, event_key, count(*) AS n FROM chain_transfers WHERE status != 'orphaned' GROUP BY chain, txid, event_key HAVING n > 1",
))
  problem(`transfer ${dup.chain} ${dup.txid}#${dup.event_key} recorded ${dup.n} times`);

// payouts: exactly one on-chain transfer each (a fresh receiver holds exactly its amount)
const suiClient = new SuiGrpcClient({ network: 'localnet', baseUrl: sui.rpc });
async function onChainBalance(p: Payout): Promise<bigint> {
  if (p.token.chain === 'ETH') {
    const data = `0x70a08231${p.to.slice(2).toLowerCase().padStart(64, '0')}`;
    const r = await rpc(eth.rpc, 'eth_call', [{ to: p.token.contract, data }, 'latest']);
    return BigInt(String(r.result));
  }
  if (p.token.chain === 'TRON') {
    const res = await fetch(`${tron.rpc}/_fake/balance`, {
      method: 'POST',
      body: JSON.stringify({ address: p.to, contract: p.token.contract }),
    });
    const body = (await res.json()) as { token?: string | number };
    return BigInt(String(body.token ?? '0'));
  }
  const r = await suiClient.core.getBalance({ address: p.to, coinType: p.token.contract });
  return BigInt(r.balance.balance);
}
let payoutsRefused = 0;
for (const p of payouts) {
  if (p.refused) {
    payoutsRefused++;
    problem(`${p.orderId}: createPayout refused: ${p.refused}`);
    continue;
  }
  const row = orderRow(p.m, p.orderId);
  if (row?.status !== 'SUCCESS') problem(`${p.orderId}: payout ${row?.status} (${row?.reason ?? ''})`);
  const held = await onChainBalance(p);
  if (held !== p.amountBase)
    problem(`${p.orderId}: the receiver holds ${held}, the payout was ${p.amountBase}`);
}

// webhooks: all delivered; an order's next event only after the previous one was acknowledged
const undelivered =
  q<{ n: number }>("SELECT count(*) AS n FROM webhook_events WHERE status != 'delivered'")[0]?.n ?? 0;
if (undelivered > 0) problem(`${undelivered} webhook events not delivered`);
const acked = new Map<string, number>();
for (const a of receiver.arrivals)
  if (a.answered === 200 && !acked.has(a.eventId)) acked.set(a.eventId, a.at);
const events = q<{ id: string; order_ref: string; order_version: number }>(
  'SELECT id, order_ref, order_version FROM webhook_events WHERE order_ref IS NOT NULL ORDER BY order_ref, order_version',
);
const firstArrival = new Map<string, number>();
for (const a of receiver.arrivals) if (!firstArrival.has(a.eventId)) firstArrival.set(a.eventId, a.at);
let outOfOrder = 0;
for (let i = 1; i < events.length; i++) {
  const prev = events[i - 1] as (typeof events)[number];
  const cur = events[i] as (typeof events)[number];
  if (prev.order_ref !== cur.order_ref) continue;
  const prevAck = acked.get(prev.id);
  const curFirst = firstArrival.get(cur.id);
  if (prevAck === undefined || curFirst === undefined || curFirst < prevAck) outOfOrder++;
}
for (const e of events) if (!acked.has(e.id)) problem(`event ${e.id} never acknowledged by the receiver`);
if (outOfOrder > 0)
  problem(`${outOfOrder} events sent before the previous event of their order was acknowledged`);
if (receiver.counts.badSignature > 0)
  problem(`${receiver.counts.badSignature} webhooks with a bad signature`);

// ledger: each balance is the sum of its entries, and what the orders moved
const sums = await rt.db.sumLedgerEntries();
const balances = await rt.db.listBalances();
for (const b of balances) {
  const key = `${b.merchantId}/${b.chain}/${b.symbol}`;
  const s = sums.get(key);
  if (!s || s.available !== b.available || s.frozen !== b.frozen)
    problem(
      `balance ${key} (${b.available}/${b.frozen}) is not the sum of its entries (${s?.available}/${s?.frozen})`,
    );
  const credits = q<{ a: string; f: string }>(
    "SELECT actual_amount_base AS a, fee AS f FROM orders WHERE merchant_id = ? AND chain = ? AND symbol = ? AND type = 'COLLECTION' AND status = 'SUCCESS'",
    b.merchantId,
    b.chain,
    b.symbol,
  );
  const paidOut = q<{ a: string }>(
    "SELECT amount_base AS a FROM orders WHERE merchant_id = ? AND chain = ? AND symbol = ? AND type = 'PAYOUT' AND status = 'SUCCESS'",
    b.merchantId,
    b.chain,
    b.symbol,
  );
  const funded = b.chain === 'ETH' && b.symbol === 'USDC' ? 0n : BigInt(FUNDING) * 10n ** BigInt(b.decimals);
  const expected =
    funded + credits.reduce((s, r) => s + BigInt(r.a), 0n) - paidOut.reduce((s, r) => s + BigInt(r.a), 0n);
  if (b.available !== expected || b.frozen !== 0n)
    problem(`balance ${key}: available ${b.available}, frozen ${b.frozen}; the orders say ${expected} and 0`);
}

// how long a merchant waits: last payment sent (or payout asked) to the first ORDER_SUCCESS webhook
const successArrival = new Map<string, number>();
for (const a of receiver.arrivals)
  if (a.notifyType === 'ORDER_SUCCESS' && !successArrival.has(a.orderId)) successArrival.set(a.orderId, a.at);
function spread(waits: number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...waits].sort((a, b) => a - b);
  const at = (q: number) =>
    Number(((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) / 1000).toFixed(1));
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: at(1) };
}
const paymentWaits: number[] = [];
for (const c of collections) {
  const inTime = c.paid.filter((p) => !p.afterExpiry);
  const arrived = successArrival.get(c.orderId);
  if (!c.uncertain && expectedStatus(c) === 'SUCCESS' && inTime.length > 0 && arrived !== undefined)
    paymentWaits.push(arrived - Math.max(...inTime.map((p) => p.at)));
}
const payoutWaits: number[] = [];
for (const p of payouts) {
  const arrived = successArrival.get(p.orderId);
  if (p.askedAt !== undefined && arrived !== undefined) payoutWaits.push(arrived - p.askedAt);
}

const statusCount = (type: string) =>
  Object.fromEntries(
    q<{ status: string; n: number }>(
      'SELECT status, count(*) AS n FROM orders WHERE type = ? GROUP BY status',
      type,
    ).map((r) => [r.status, r.n]),
  );
const figures = {
  command: `npx tsx bench/soak.ts --minutes ${MINUTES} --seed ${SEED}`,
  date: new Date(started).toISOString(),
  minutesOfBusiness: Number(((businessEnded - started) / 60_000).toFixed(1)),
  drainSeconds: Math.round((drainedAt - businessEnded) / 1000),
  loadAverage: {
    start: load.start.map((x) => Number(x.toFixed(2))),
    end: load.end.map((x) => Number(x.toFixed(2))),
  },
  collections: { created: collections.length, byPlan, statuses: statusCount('COLLECTION') },
  payments: collections.reduce((s, c) => s + c.paid.length, 0),
  paymentErrors,
  collectionsWithAFailedPayment: collections.filter((c) => c.uncertain).length,
  payouts: { asked: payouts.length, refused: payoutsRefused, statuses: statusCount('PAYOUT') },
  kills,
  secondsToSuccessWebhook: { collections: spread(paymentWaits), payouts: spread(payoutWaits) },
  webhooks: {
    events: q<{ n: number }>('SELECT count(*) AS n FROM webhook_events')[0]?.n,
    requestsReceived: receiver.counts.received,
    answered500: receiver.counts.failed500,
    leftHanging: receiver.counts.hung,
    connectionsDropped: receiver.counts.dropped,
    duplicates: receiver.arrivals.filter((a) => a.answered === 200).length - acked.size,
    outOfOrder,
  },
  invariantsHeld: problems.length === 0,
  problems,
};
await rt.close();
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
if (problems.length > 0) log('last Kassa log lines', { tails: tails.slice(-20) });
await receiver.close();
await chains.stop();
if (!values.keep && problems.length === 0) rmSync(dir, { recursive: true, force: true });
else log('data kept', { dir });
process.exit(problems.length === 0 ? 0 : 1);
