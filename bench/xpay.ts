/**
 * XPay compatibility (issue 13): what an XPay-style createCollection costs next to the interface's.
 * One Kassa API process (bench/api-server.ts: migrated SQLite, address pool filled), two merchants:
 * one signing the interface's way, one in XPay mode signing as XPay's node SDK does (X-API-TOKEN,
 * `k=v` text keyed by the webhook secret, body parsed keeping number lexemes). The two kinds run in
 * alternating rounds against the same server (ABBA, so neither always runs on the fuller database),
 * so a busy machine's drift hits both alike. Besides throughput and latency, the server's CPU per
 * request (user + system from /proc over each run) is reported: it depends far less on what else the
 * machine is doing. The pool must hold every EVM order (two in three requests are ETH or BSC), or the
 * later runs derive addresses inline; `poolHeld` says whether it did.
 *
 * Each kind first runs `--warmup` seconds untimed, so neither pays the JIT's first compilation.
 *
 *   npx tsx bench/xpay.ts [--duration 5] [--connections 50] [--rounds 3] [--pool 60000] [--warmup 2]
 */
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { nodeSdkRequestBody } from '../test/helpers/xpay-sdk.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    pool: { type: 'string', default: '60000' },
    warmup: { type: 'string', default: '2' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'bench/api-server.ts', 'kassa', values.pool as string],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const info = JSON.parse(
  await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
) as { port: number; token: string; poolMs: number; xpay: { token: string; webhookSecret: string } };

const chains = [
  { chain: 'ETH', symbol: 'USDT' },
  { chain: 'TRON', symbol: 'USDT' },
  { chain: 'BSC', symbol: 'USDC' },
];
let n = 0;
const order = () => {
  const c = chains[n++ % chains.length] as (typeof chains)[number];
  return { amount: '10.5', symbol: c.symbol, chain: c.chain, orderId: `bench-${n}-${randomUUID()}` };
};
const now = () => Math.floor(Date.now() / 1000);

/** The server's CPU seconds (user + system) so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

const kinds = {
  interface: {
    headers: { 'content-type': 'application/json' },
    body: () => {
      const text = JSON.stringify(order());
      const sign = createHmac('sha256', info.token).update(text).digest('hex');
      return `{"sign":"${sign}","timestamp":${now()},"nonce":"${randomUUID()}","data":${text}}`;
    },
  },
  xpay: {
    headers: { 'content-type': 'application/json', 'x-api-token': info.xpay.token },
    body: () =>
      nodeSdkRequestBody(info.xpay.webhookSecret, order(), { timestamp: now(), nonce: randomUUID() }),
  },
};

async function run(kind: keyof typeof kinds, seconds = duration) {
  const k = kinds[kind];
  let wrong = 0;
  const cpuBefore = cpuSeconds(child.pid as number);
  const result = await autocannon({
    url: `http://127.0.0.1:${info.port}/v1/order/createCollection`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: k.headers,
        setupRequest: (req) => ({ ...req, body: k.body() }),
        onResponse: (_status, body) => {
          if (!body.startsWith('{"code":200')) wrong++;
        },
      },
    ],
  });
  const cpu = cpuSeconds(child.pid as number) - cpuBefore;
  return {
    kind,
    cpuMicrosPerRequest: Math.round((cpu * 1e6) / Math.max(1, result.requests.total)),
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    notCreated: wrong + result.non2xx + result.errors,
    total: result.requests.total,
  };
}

for (const kind of ['interface', 'xpay'] as const) await run(kind, Number(values.warmup));
const rounds: Awaited<ReturnType<typeof run>>[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const order: (keyof typeof kinds)[] = r % 2 === 0 ? ['interface', 'xpay'] : ['xpay', 'interface'];
  for (const kind of order) rounds.push(await run(kind));
}
child.kill('SIGTERM');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const of = (kind: string, key: 'requestsPerSec' | 'p99' | 'cpuMicrosPerRequest') =>
  median(rounds.filter((x) => x.kind === kind).map((x) => x[key]));
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
      settings: {
        duration,
        connections,
        rounds: Number(values.rounds),
        pool: Number(values.pool),
        warmup: Number(values.warmup),
        poolMs: info.poolMs,
      },
      rounds,
      median: {
        interface: {
          requestsPerSec: of('interface', 'requestsPerSec'),
          p99: of('interface', 'p99'),
          cpuMicrosPerRequest: of('interface', 'cpuMicrosPerRequest'),
        },
        xpay: {
          requestsPerSec: of('xpay', 'requestsPerSec'),
          p99: of('xpay', 'p99'),
          cpuMicrosPerRequest: of('xpay', 'cpuMicrosPerRequest'),
        },
      },
      poolHeld: Math.ceil((n * 2) / 3) <= Number(values.pool),
      xpayToInterface: Number((of('xpay', 'requestsPerSec') / of('interface', 'requestsPerSec')).toFixed(2)),
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
    },
    null,
    2,
  ),
);
