/**
 * A flood of bad signatures from one address (issue 14, item 1): what it costs the API's process.
 * The server (bench/auth-flood-server.ts) runs in its own process with `--merchants` active merchants;
 * autocannon sends signed-looking createCollection requests whose sign is wrong, all from 127.0.0.1.
 * CPU is the server process's user + system time from /proc, over each phase's wall time.
 *
 *   npx tsx bench/auth-flood.ts [--merchants 1000] [--seconds 10]
 *
 * Phases:
 * - unrefused: the failed-authentication limit out of reach, 100 bad requests a second: what each
 *   costs when it is verified (one HMAC per merchant, no X-Merchant-Id);
 * - refused at 300/s: the default limit (30 per 60 s); the 300 bad requests a second, which
 *   used to fill a core at 1,000 merchants;
 * - refused at full speed: as fast as 10 connections can send;
 * - with X-Merchant-Id: unrefused, naming the merchant: one HMAC each;
 * - GET /healthz at 300/s, for reference: the cheapest request this HTTP stack serves.
 * Budget: once refused, at most 5 % of a core at 300 requests a second.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: { merchants: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '10' } },
});
const merchants = Number(values.merchants);
const seconds = Number(values.seconds);
const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** The process's CPU seconds (user + system) so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function startServer(mode: 'limited' | 'unlimited') {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/auth-flood-server.ts', String(merchants), mode],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  return { child, ...(JSON.parse(line) as { port: number; pid: number; merchantId: string }) };
}

function badBody(): string {
  const data = JSON.stringify({ amount: '10', symbol: 'USDT', chain: 'TRON', orderId: randomUUID() });
  return `{"sign":"${'ab'.repeat(32)}","timestamp":${Math.floor(Date.now() / 1000)},"nonce":"${randomUUID()}","data":${data}}`;
}

async function phase(
  server: { port: number; pid: number },
  options: { rate?: number; connections: number; headers?: Record<string, string>; path?: string },
) {
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${options.path ?? '/v1/order/createCollection'}`,
    connections: options.connections,
    duration: seconds,
    ...(options.rate ? { overallRate: options.rate } : {}),
    requests: options.path
      ? undefined
      : [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...options.headers },
            setupRequest: (req) => ({ ...req, body: badBody() }),
          },
        ],
  });
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const total = result.requests.total;
  return {
    requestsPerSec: Math.round(total / wall),
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]),
    ),
    cpuPercentOfACore: Number(((cpu / wall) * 100).toFixed(1)),
    cpuMicrosecondsPerRequest: total > 0 ? Math.round((cpu / total) * 1e6) : null,
  };
}

/**
 * Before measuring: 40 bad requests (past the limit of 30, so the measured phases start refused;
 * the directory's cache is loaded), then 3 s at full speed so the code measured is JIT-compiled, as
 * it is in a process that has been serving for a while.
 */
async function warm(server: { port: number }) {
  for (let i = 0; i < 40; i++)
    await fetch(`http://127.0.0.1:${server.port}/v1/order/createCollection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: badBody(),
    });
  for (const path of ['/v1/order/createCollection', '/healthz'])
    await autocannon({
      url: `http://127.0.0.1:${server.port}${path}`,
      connections: 4,
      duration: 3,
      requests:
        path === '/healthz'
          ? undefined
          : [
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                setupRequest: (req) => ({ ...req, body: badBody() }),
              },
            ],
    });
}

const unlimited = await startServer('unlimited');
await warm(unlimited);
const unrefused = await phase(unlimited, { rate: 100, connections: 4 });
const named = await phase(unlimited, {
  rate: 300,
  connections: 4,
  headers: { 'x-merchant-id': unlimited.merchantId },
});
unlimited.child.kill('SIGTERM');

const limited = await startServer('limited');
await warm(limited);
const refused300 = await phase(limited, { rate: 300, connections: 4 });
const healthz300 = await phase(limited, { rate: 300, connections: 4, path: '/healthz' });
const refusedFull = await phase(limited, { connections: 10 });
limited.child.kill('SIGTERM');

console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`,
      merchants,
      secondsPerPhase: seconds,
      unrefusedBadSignatureAt100PerSec: unrefused,
      withMerchantIdAt300PerSec: named,
      refusedAt300PerSec: refused300,
      healthzAt300PerSecForReference: healthz300,
      refusedAtFullSpeed: refusedFull,
      budget: {
        refusedAt300PerSecUnder5PercentOfACore: refused300.cpuPercentOfACore <= 5 ? 'met' : 'MISSED',
      },
    },
    null,
    2,
  ),
);
