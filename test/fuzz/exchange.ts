import { afterAll, expect } from 'vitest';
import { ERROR_TABLE } from '../../src/http/errors.ts';
import type { Harness } from '../helpers/harness.ts';
import {
  byStatus,
  ENVELOPE_MESSAGES,
  PAYOUT_REFUSALS,
  VALIDATION,
  XPAY_ENVELOPE,
  XPAY_PATTERNS,
  XPAY_TEXTS,
} from './refusals.ts';

/**
 * The properties every answer of the fuzzed endpoints must have (issues 13 and 14), checked on each
 * request the fuzz tests send:
 * - never a 5xx (the database and the process are healthy throughout);
 * - the API answers with a valid R<T> envelope whose code is the status; a request answered XPay's
 *   way (X-API-TOKEN, or a GET only XPay has) with XPay's: HTTP 200, code 200/500/404/405, a known
 *   text, never an internal error;
 * - a refusal carries its status's message from the error table (a 400 one of the validation
 *   messages);
 * - a refused request writes nothing: no order, address, event or payout attempt; and a nonce only
 *   when it was authenticated and then refused for its data (a replay of it must stay refused).
 */

/** How many rows a request could have written, per table (nonces apart). */
function counts(h: Harness) {
  const one = (sql: string) => (h.db.$client.prepare(sql).get() as { n: number }).n;
  return {
    orders: one('SELECT count(*) AS n FROM orders'),
    addresses: one('SELECT count(*) AS n FROM deposit_addresses WHERE order_ref IS NOT NULL'),
    events: one('SELECT count(*) AS n FROM webhook_events'),
    payoutAttempts: one('SELECT count(*) AS n FROM payout_attempts'),
    merchants: one('SELECT count(*) AS n FROM merchants'),
    tokens: one('SELECT count(*) AS n FROM tokens'),
    nonces: one('SELECT count(*) AS n FROM request_nonces'),
  };
}

/** An answer as the fuzz tests read it. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Whether Kassa answers a request XPay's way (http/xpay-envelope.ts says the same in code). */
function answeredXpay(path: string, init: RequestInit): boolean {
  const p = path.split('?')[0] ?? '';
  const headers = new Headers(init.headers);
  return (
    p.startsWith('/v1/') &&
    ((headers.has('x-api-token') && p !== '/v1/order/pay' && p !== '/v1/order/getOrderStatus') ||
      ((init.method ?? 'GET') === 'GET' &&
        ['/v1/merchant/getBalance', '/v1/merchant/getCryptoAddress'].includes(p)))
  );
}

/** How a request is checked: whether an envelope is due, from which client address, and writes. */
export interface ExchangeOptions {
  envelope: boolean;
  ip?: string;
  writes?: 'checked' | 'unchecked';
}

/**
 * The fuzz tests' way to send a request to `world.h`: sends it in process, checks the properties
 * above (an expectation fails the test, naming the request and its answer) and returns the answer.
 * Statuses seen per path are printed after the file's tests with KASSA_FUZZ_STATS=1 (to see which
 * code the runs reach).
 */
export function useExchange(world: {
  h: Harness;
}): (path: string, init: RequestInit, options: ExchangeOptions) => Promise<Answer> {
  const seen = new Map<string, Map<string, number>>();
  afterAll(() => {
    if (process.env.KASSA_FUZZ_STATS)
      for (const [path, statuses] of seen) console.log(path, Object.fromEntries(statuses));
  });
  return async (path, init, options) => {
    const h = world.h;
    const before = counts(h);
    const res = await h.app.request(path, init, {
      incoming: { socket: { remoteAddress: options.ip ?? '127.0.0.1' } },
    });
    const text = await res.text();
    const answer = { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
    const where = `${init.method ?? 'GET'} ${path} → ${res.status} ${text.slice(0, 200)}`;
    const route = path.split('?')[0]?.replace(/^(\/v1\/order\/status\/).*/, '$1…') ?? path;
    const tally = seen.get(route) ?? new Map<string, number>();
    seen.set(route, tally);
    const label = `${res.status} ${res.status === 200 && !answeredXpay(path, init) ? '' : text.slice(0, 60)}`;
    tally.set(label, (tally.get(label) ?? 0) + 1);
    expect(res.status, where).toBeLessThan(500);
    expect(byStatus.has(res.status) || res.status === 200, where).toBe(true);
    if (res.status === 429) expect(Number(res.headers.get('retry-after')), where).toBeGreaterThanOrEqual(1);
    let msg: string | null = null;
    if (options.envelope && answeredXpay(path, init)) {
      expect(res.status, where).toBe(200);
      expect(answer.contentType, where).toContain('application/json');
      const body = JSON.parse(text) as { code: unknown; msg: unknown; data: unknown };
      expect(Object.keys(body).sort(), where).toEqual(['code', 'data', 'msg']);
      expect([200, 500, 404, 405], where).toContain(body.code);
      expect(typeof body.msg, where).toBe('string');
      msg = body.msg as string;
      if (body.code === 200) expect(msg, where).toBe('操作成功');
      else {
        expect(body.data, where).toBeNull();
        expect(msg, where).not.toBe(ERROR_TABLE.internal.msg);
        const known =
          XPAY_TEXTS.has(msg) ||
          XPAY_PATTERNS.some((r) => r.test(msg as string)) ||
          VALIDATION.has(msg) ||
          PAYOUT_REFUSALS.some((r) => r.test(msg as string)) ||
          [...byStatus.values()].some((set) => set.has(msg as string));
        expect(known, where).toBe(true);
        if (body.code === 429)
          expect(Number(res.headers.get('retry-after')), where).toBeGreaterThanOrEqual(1);
      }
      if (body.code !== 200 && options.writes !== 'unchecked') {
        const after = counts(h);
        const spentNonce = after.nonces - before.nonces;
        expect(spentNonce, where).toBeGreaterThanOrEqual(0);
        expect(spentNonce, where).toBeLessThanOrEqual(XPAY_ENVELOPE(msg) ? 0 : 1);
        expect({ ...after, nonces: 0 }, where).toEqual({ ...before, nonces: 0 });
      }
      return answer;
    }
    if (options.envelope) {
      expect(answer.contentType, where).toContain('application/json');
      const body = JSON.parse(text) as { code: unknown; msg: unknown; data: unknown };
      expect(Object.keys(body).sort(), where).toEqual(['code', 'data', 'msg']);
      expect(body.code, where).toBe(res.status);
      expect(typeof body.msg, where).toBe('string');
      msg = body.msg as string;
      if (res.status === 200) expect(body.msg, where).toBe('success');
      else {
        expect(body.data, where).toBeNull();
        if (res.status === 400) expect(VALIDATION.has(msg), where).toBe(true);
        else if (res.status === 422)
          expect(
            PAYOUT_REFUSALS.some((r) => r.test(msg as string)),
            where,
          ).toBe(true);
        else expect(byStatus.get(res.status)?.has(msg), where).toBe(true);
      }
    }
    if (res.status !== 200 && options.writes !== 'unchecked') {
      const after = counts(h);
      const spentNonce = after.nonces - before.nonces;
      // Only an authenticated request refused for its data (not its envelope) spends its nonce.
      const dataRefusal = [400, 409, 422].includes(res.status) && msg !== null && !ENVELOPE_MESSAGES.has(msg);
      expect(spentNonce, where).toBeGreaterThanOrEqual(0);
      expect(spentNonce, where).toBeLessThanOrEqual(dataRefusal ? 1 : 0);
      expect({ ...after, nonces: 0 }, where).toEqual({ ...before, nonces: 0 });
    }
    return answer;
  };
}
