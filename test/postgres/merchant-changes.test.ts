import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/bootstrap.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import {
  createMerchant,
  type MerchantCreated,
  rotateMerchantToken,
} from '../../src/services/manage-merchants.ts';
import { type ApiProcesses, startApiProcesses } from '../helpers/api-processes.ts';
import { TEST_MASTER_KEY } from '../helpers/harness.ts';
import { type FreshPgDatabase, freshPgDatabase } from '../helpers/pg-database.ts';
import { pgQuery } from '../helpers/pg-query.ts';

/**
 * A merchant changed by another process (`kassa merchant rotate-token`, `disable`) while two
 * `kassa api` processes on the same PostgreSQL keep serving it from memory: each must refuse the old
 * token within a second of the change being committed (README, the `kassa merchant` commands: "a
 * rotated token … or a disabled merchant takes effect within a second"). Both processes are kept busy with the merchant's requests the whole time, so each
 * holds a fresh copy of it when the change lands; the moment of the commit is read from
 * PostgreSQL itself, every few milliseconds. The commands' own start-up takes seconds, which may
 * happen to line up with the processes' re-reads; the last test removes that luck by changing the
 * merchant right after both re-read it.
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

/** Resolves once `check` holds, looking every few milliseconds; throws after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Keeps both processes answering requests signed with `token`, back to back; once each has accepted
 * one, runs `change` (a change of the merchant by another process), sees it commit in PostgreSQL,
 * and resolves with how long after the commit each process gave its first 401, whether any accepted
 * the token again after refusing it, and what `change` returned.
 */
async function refusalAfter(m: MerchantCreated, token: string, change: () => Promise<string>) {
  const acceptedAt: (number | null)[] = [null, null];
  const refusedAt: (number | null)[] = [null, null];
  let acceptedAfterRefusal = false;
  let stop = false;
  const load = [0, 1].map(async (i) => {
    while (!stop) {
      const status = await ask(i, token);
      if (status === 401 && acceptedAt[i] !== null) refusedAt[i] ??= Date.now();
      else if (status === 200) {
        acceptedAt[i] ??= Date.now();
        if (refusedAt[i] !== null) acceptedAfterRefusal = true;
      } else if (status !== 401) throw new Error(`process ${i} answered ${status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  try {
    await until(() => acceptedAt.every((t) => t !== null), 10_000, 'both processes accept the merchant');
    const before = await stored(m.merchantId);
    let finished = false;
    const result = change().finally(() => {
      finished = true;
    });
    let committedAt = 0;
    while (committedAt === 0) {
      const ended = finished;
      if ((await stored(m.merchantId)) !== before) committedAt = Date.now();
      else if (ended) throw new Error(`the change changed nothing: ${await result}`);
      if (refusedAt.some((t) => t !== null) && committedAt === 0)
        throw new Error('a process refused the token before the change was committed');
    }
    const output = await result;
    await until(() => refusedAt.every((t) => t !== null), WITHIN_MS + 1000, 'both processes refuse').catch(
      () => {},
    );
    return {
      output,
      afterCommitMs: refusedAt.map((t) => (t === null ? null : t - committedAt)),
      acceptedAfterRefusal,
    };
  } finally {
    stop = true;
    await Promise.all(load);
  }
}

/** Runs `kassa …` on the processes' database; its standard output, or a failure with its stderr. */
async function kassa(args: string[]): Promise<string> {
  const r = await api.cli(args);
  if (r.code !== 0) throw new Error(`kassa ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** The refusal came in every process, within the promise, and never turned back into acceptance. */
function expectRefusedWithin(r: Awaited<ReturnType<typeof refusalAfter>>): void {
  for (const ms of r.afterCommitMs) expect(ms, `refused ${ms} ms after the commit`).not.toBeNull();
  for (const ms of r.afterCommitMs) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
  expect(r.acceptedAfterRefusal).toBe(false);
}

describe('a merchant changed by another process, seen by two kassa api processes', () => {
  it('refuses the old token in both within a second of kassa merchant rotate-token; the new one works in both', async () => {
    const r = await refusalAfter(rotated, rotated.token, () =>
      kassa(['merchant', 'rotate-token', rotated.merchantId]),
    );
    expectRefusedWithin(r);
    const { token } = JSON.parse(r.output) as { token: string };
    expect([await ask(0, token), await ask(1, token)]).toEqual([200, 200]);
  });

  it('refuses a disabled merchant in both within a second of kassa merchant disable', async () => {
    expectRefusedWithin(
      await refusalAfter(disabled, disabled.token, () => kassa(['merchant', 'disable', disabled.merchantId])),
    );
  });

  it('refuses the old token within a second even when the rotation lands just after both processes re-read their merchants', async () => {
    // The merchant is new to both processes: each accepts its token first right after the re-read
    // that found it, and the token is rotated at once (from this process, without the CLI's
    // start-up), so the next re-read is a whole interval away: the worst case of the promise.
    const rt = await bootstrap({
      env: { KASSA_DB: join(tmpdir(), 'kassa-unused.db'), KASSA_MASTER_KEY: TEST_MASTER_KEY },
      overrides: { database: { url: database.url } },
      logger: silentLogger(),
    });
    try {
      const m = await createMerchant(rt, { kind: 'V3' });
      const r = await refusalAfter(m, m.token, async () =>
        JSON.stringify(await rotateMerchantToken(rt, m.merchantId)),
      );
      expectRefusedWithin(r);
    } finally {
      await rt.close();
    }
  });
});
