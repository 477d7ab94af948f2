import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/bootstrap.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { type KassaBehindProxy, kassaBehindProxy } from '../helpers/kassa-behind-proxy.ts';

// A network partition between Kassa and PostgreSQL: unlike a server that is down, nothing answers
// and nothing is refused, so only Kassa's own timeouts end the wait. The API must still answer
// (503 busy, retry) within them instead of holding the merchant's request open for ever, a command
// must stop with a clear error instead of hanging at start, and once the partition heals the same
// process serves again. Short timeouts here; the defaults are in src/config/database-schema.ts.

const TIMEOUTS = { connectTimeoutMs: 1000, queryTimeoutMs: 1500 };
/** The most any answer may take here: a connect or a query timeout, and a machine's slack. */
const ANSWER_WITHIN_MS = 6000;

let k: KassaBehindProxy;

beforeAll(async () => {
  k = await kassaBehindProxy(TIMEOUTS);
});

afterAll(async () => {
  await k?.close();
});

/** `work`'s outcome and how long it took, or a failure once it has taken `withinMs` (it hangs). */
async function timed<T>(work: Promise<T>, withinMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${withinMs} ms`)), withinMs);
  });
  try {
    const value = await Promise.race([work, hung]);
    return { value, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

describe('a network partition between Kassa and PostgreSQL', () => {
  it('answers the merchant 503 busy within the timeouts, on the connections it holds and on new ones', async () => {
    expect((await k.createCollection()).body.code).toBe(200);
    k.proxy.stall();
    // the pool's open connection: the query is sent and never answered
    const first = await timed(k.createCollection(), ANSWER_WITHIN_MS);
    expect(first.value).toEqual({
      status: 503,
      body: { code: 503, msg: 'The service is busy. Please retry.', data: null },
    });
    // ten at once: more than the connections in the pool, each one a new connection never answered
    const many = await timed(
      Promise.all(Array.from({ length: 10 }, () => k.createCollection())),
      ANSWER_WITHIN_MS,
    );
    for (const r of many.value) expect(r.status).toBe(503);
  });

  it('serves again from the same process once the partition heals', async () => {
    k.proxy.resume();
    const deadline = Date.now() + 10_000;
    let last = await k.createCollection();
    while (last.body.code !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      last = await k.createCollection();
    }
    expect(last.body.code).toBe(200);
  });

  it('stops a command at start with a clear error, instead of hanging on a server that never answers', async () => {
    k.proxy.stall();
    const url = new URL(k.url);
    url.password = 'hunter2-partition';
    const opening = bootstrap({
      env: { KASSA_MNEMONIC: TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY },
      overrides: { database: { url: url.toString(), ...TIMEOUTS } },
      logger: silentLogger(),
    });
    const outcome = await timed(
      opening.then(
        (opened) => opened.close().then(() => null),
        (error: Error) => error,
      ),
      ANSWER_WITHIN_MS,
    );
    k.proxy.resume();
    expect(outcome.value).toBeInstanceOf(Error);
    const message = String(outcome.value?.message);
    expect(message).toContain('cannot reach the PostgreSQL database');
    expect(message).toContain(`127.0.0.1:${k.proxy.port}`);
    expect(message).not.toContain('hunter2-partition');
  });
});
