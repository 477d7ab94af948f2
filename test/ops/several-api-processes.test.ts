import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/bootstrap.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { rotateMerchantToken } from '../../src/services/manage-merchants.ts';
import { freePort, kassaAsync, sigkill, spawnKassa, waitForHttp } from '../helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { envelope } from '../helpers/signing.ts';

/**
 * Two `kassa api` processes on one SQLite database (what a second API instance behind a load
 * balancer is): a token rotated or a merchant disabled in a third process takes effect in both
 * within about a second (each re-reads its merchants at most once a second). The tests poll every
 * 20 ms, so the processes get limits that polling cannot reach: with the defaults (getBalance 100 per
 * 10 s, halved per process) a busy second of polling used up the merchant's share and a 429 stood
 * where the new token's 200 should have been.
 */
const dir = mkdtempSync(join(tmpdir(), 'kassa-apis-'));
const configFile = join(dir, 'kassa.json');
writeFileSync(
  configFile,
  JSON.stringify({
    host: '127.0.0.1',
    rateLimits: { getBalance: { limit: 1_000_000, windowSeconds: 10 } },
    auth: { failedAttempts: { limit: 1_000_000, windowSeconds: 60 } },
  }),
);
const env: Record<string, string> = {
  KASSA_DB: join(dir, 'kassa.db'),
  KASSA_MNEMONIC: TEST_MNEMONIC,
  KASSA_MASTER_KEY: TEST_MASTER_KEY,
  ...Object.fromEntries(CHAINS.map((c) => [`KASSA_RPC_${c}`, ''])),
};
const apis: { child: ChildProcess; url: string }[] = [];
let merchant: { merchantId: string; token: string };

beforeAll(async () => {
  expect((await kassaAsync(['migrate'], env)).code).toBe(0);
  const created = await kassaAsync(['merchant', 'create', '--kind', 'V3', '--name', 'Two doors'], env);
  expect(created.code).toBe(0);
  merchant = JSON.parse(created.stdout);
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const child = spawnKassa(['api', '--config', configFile], {
      ...env,
      PORT: String(port),
      KASSA_API_PROCESSES: '2',
    });
    child.stdout?.resume();
    child.stderr?.resume();
    apis.push({ child, url: `http://127.0.0.1:${port}` });
  }
  await Promise.all(apis.map((a) => waitForHttp(`${a.url}/healthz`, 60_000)));
}, 120_000);

afterAll(async () => {
  for (const a of apis) await sigkill(a.child);
  rmSync(dir, { recursive: true, force: true });
});

/** getBalance signed with `token` on one process: the envelope's code (200, or 401 for a signature nobody's). */
async function balanceCode(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/v1/merchant/getBalance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: envelope(token, {}),
  });
  return ((await res.json()) as { code: number }).code;
}

/** Polls each process until `token` gets `code`; resolves with how long after `since` each did (ms). */
async function untilEvery(token: string, code: number, since: number, deadlineMs: number): Promise<number[]> {
  return Promise.all(
    apis.map(async (a) => {
      for (;;) {
        const got = await balanceCode(a.url, token);
        if (got === code) return Date.now() - since;
        if (got !== 200 && got !== 401) throw new Error(`${a.url} answered ${got}`);
        if (Date.now() - since > deadlineMs)
          throw new Error(`${a.url} still did not answer ${code} ${deadlineMs} ms later`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
}

describe('two API processes on one database', () => {
  it('refuse a rotated token in both within about a second, and take the new one', async () => {
    // the rotation as `kassa merchant rotate-token` makes it, from this process, so that it lands
    // right after both processes read their merchants: the worst case, a whole second to wait
    const rt = await bootstrap({ env, need: { masterKey: true }, migrations: 'require' });
    try {
      for (const a of apis) expect(await balanceCode(a.url, merchant.token)).toBe(200);
      const { token } = await rotateMerchantToken(rt, merchant.merchantId);
      const done = Date.now();
      // 1 s between re-reads, plus a request's way on a busy machine
      const took = await untilEvery(merchant.token, 401, done, 2000);
      expect(Math.max(...took)).toBeLessThan(2000);
      for (const a of apis) expect(await balanceCode(a.url, token)).toBe(200);
      merchant = { ...merchant, token };
    } finally {
      await rt.close();
    }
  });

  it('refuse a token rotated with the CLI in both within about a second of the command', async () => {
    const rotated = await kassaAsync(['merchant', 'rotate-token', merchant.merchantId], env);
    expect(rotated.code).toBe(0);
    const done = Date.now(); // the rotation is committed: the command has exited
    const { token } = JSON.parse(rotated.stdout) as { token: string };
    const took = await untilEvery(merchant.token, 401, done, 2000);
    expect(Math.max(...took)).toBeLessThan(2000);
    for (const a of apis) expect(await balanceCode(a.url, token)).toBe(200);
    merchant = { ...merchant, token };
  });

  it('refuse a disabled merchant in both within about a second', async () => {
    for (const a of apis) expect(await balanceCode(a.url, merchant.token)).toBe(200);
    expect((await kassaAsync(['merchant', 'disable', merchant.merchantId], env)).code).toBe(0);
    const took = await untilEvery(merchant.token, 401, Date.now(), 2000);
    expect(Math.max(...took)).toBeLessThan(2000);
  });
});
