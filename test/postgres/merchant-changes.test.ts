import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type ApiProcesses, startApiProcesses } from '../helpers/api-processes.ts';
import { type FreshPgDatabase, freshPgDatabase } from '../helpers/pg-database.ts';
import { pgQuery } from '../helpers/pg-query.ts';

/**
 * A merchant changed by another process (`kassa merchant rotate-token`, `disable`) while two
 * `kassa api` processes on the same PostgreSQL keep serving it from memory: each must refuse the old
 * token within a second of the change being committed (README, the `kassa merchant` commands: "a
 * rotated token … or a disabled merchant takes effect within a second"). Both processes are kept busy with the merchant's requests the whole time, so each
 * holds a fresh copy of it when the change lands; the moment of the commit is read from
 * PostgreSQL itself, every few milliseconds.
 */
const BALANCE = '/v1/merchant/getBalance';
/** The promise, and the slack a busy machine needs to answer the request that shows it. */
const WITHIN_MS = 1000 + 500;

let database: FreshPgDatabase;
let api: ApiProcesses;
let rotated: MerchantCreated;
let disabled: MerchantCreated;

beforeAll(async () => {
  database = await freshPgDatabase();
  const plenty = { limit: 1_000_000, windowSeconds: 10 };
  api = await startApiProcesses(
    2,
    { KASSA_DATABASE_URL: database.url },
    {
      rateLimits: { getBalance: plenty },
      auth: { failedAttempts: { limit: 1_000_000, windowSeconds: 60 } },
    },
  );
  [rotated, disabled] = await Promise.all([merchant(), merchant()]);
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await database?.drop();
});

async function merchant(): Promise<MerchantCreated> {
  const r = await api.cli(['merchant', 'create', '--kind', 'V3']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as MerchantCreated;
}

/** A signed getBalance of `token` to process `i`: its HTTP status. */
const ask = async (i: number, token: string) =>
  (await api.post(i, BALANCE, token, { chain: 'ETH', symbol: 'USDT' })).status;

/** What the database holds of a merchant, to see the change commit. */
async function stored(id: string): Promise<string> {
  const [row] = await pgQuery<{ token_sealed: string; status: string }>(
    database.url,
    'SELECT token_sealed, status FROM merchants WHERE id = $1',
    [id],
  );
  return `${row?.status}:${row?.token_sealed}`;
}

/**
 * Runs `change` (a `kassa` command on the merchant) while both processes answer requests signed
 * with `token` back to back; resolves with how long after the commit (seen in PostgreSQL) each
 * process gave its first 401, and whether any accepted the token again after refusing it once.
 */
async function refusalAfter(m: MerchantCreated, token: string, change: string[]) {
  const refusedAt: (number | null)[] = [null, null];
  let acceptedAfterRefusal = false;
  let stop = false;
  const load = [0, 1].map(async (i) => {
    while (!stop) {
      const status = await ask(i, token);
      if (status === 401) refusedAt[i] ??= Date.now();
      else if (status === 200 && refusedAt[i] !== null) acceptedAfterRefusal = true;
      else if (status !== 200) throw new Error(`process ${i} answered ${status}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  try {
    const before = await stored(m.merchantId);
    let finished = false;
    const result = api.cli(change).finally(() => {
      finished = true;
    });
    let committedAt = 0;
    while (committedAt === 0) {
      const ended = finished;
      if ((await stored(m.merchantId)) !== before) committedAt = Date.now();
      else if (ended) throw new Error(`kassa ${change.join(' ')} changed nothing: ${(await result).stderr}`);
      if (refusedAt.some((t) => t !== null) && committedAt === 0)
        throw new Error('a process refused the token before the change was committed');
    }
    const cli = await result;
    expect(cli.code, cli.stderr).toBe(0);
    while (refusedAt.some((t) => t === null) && Date.now() - committedAt < WITHIN_MS + 1000)
      await new Promise((r) => setTimeout(r, 10));
    return {
      cli,
      afterCommitMs: refusedAt.map((t) => (t === null ? null : t - committedAt)),
      acceptedAfterRefusal,
    };
  } finally {
    stop = true;
    await Promise.all(load);
  }
}

describe('a merchant changed by another process, seen by two kassa api processes', () => {
  it('refuses the old token in both within a second of each kassa merchant rotate-token; the new one works in both', async () => {
    let token = rotated.token;
    expect([await ask(0, token), await ask(1, token)]).toEqual([200, 200]);
    for (let rotation = 0; rotation < 2; rotation++) {
      const r = await refusalAfter(rotated, token, ['merchant', 'rotate-token', rotated.merchantId]);
      for (const ms of r.afterCommitMs) expect(ms).not.toBeNull();
      for (const ms of r.afterCommitMs) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
      expect(r.acceptedAfterRefusal).toBe(false);
      token = (JSON.parse(r.cli.stdout) as { token: string }).token;
      expect([await ask(0, token), await ask(1, token)]).toEqual([200, 200]);
    }
  });

  it('refuses a disabled merchant in both within a second of kassa merchant disable', async () => {
    const m = disabled;
    expect([await ask(0, m.token), await ask(1, m.token)]).toEqual([200, 200]);
    const r = await refusalAfter(m, m.token, ['merchant', 'disable', m.merchantId]);
    for (const ms of r.afterCommitMs) expect(ms).not.toBeNull();
    for (const ms of r.afterCommitMs) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
    expect(r.acceptedAfterRefusal).toBe(false);
  });
});
