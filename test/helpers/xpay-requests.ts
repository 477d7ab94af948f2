import { afterEach, expect } from 'vitest';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from './harness.ts';
import {
  listen,
  type RawAnswer,
  rawRequest,
  vectorHeaders,
  vectorMerchant,
  vectors,
  type XpayR,
} from './xpay.ts';

/** One request vector of test/fixtures/xpay/vectors.json. */
export type RequestVector = (typeof vectors.requestVectors)[number];

/** A fresh Kassa for one request vector: the harness, the vectors' merchant and its socket's URL. */
export type FreshKassa = { h: Harness; m: MerchantCreated; url: string };

/**
 * Registers the clean-up of the test file's Kassa and returns `fresh`, which makes a new one for each
 * test: the vectors' clock and merchant, funded for the payout vectors, listening on a socket. Every
 * signed vector carries the same nonce and a nonce is good once per merchant, so each test needs its own.
 */
export function useFreshKassa(): () => Promise<FreshKassa> {
  let h: Harness | null = null;
  let server: { url: string; close(): Promise<void> } | null = null;
  afterEach(async () => {
    await server?.close();
    await h?.close();
    server = null;
    h = null;
  });
  return async () => {
    h = await makeHarness({}, { clockStart: vectors.meta.fixedClockMs });
    const m = await vectorMerchant(h);
    await h.fund(m, 'TRON', 'USDT', '5');
    await h.fund(m, 'ETH', 'USDT', '1.5');
    server = await listen(h);
    return { h, m, url: server.url };
  };
}

/** Sends a request vector's exact method, path, query, headers and body. */
export async function send(url: string, v: RequestVector): Promise<RawAnswer> {
  return rawRequest(url, {
    method: v.method,
    path: v.path + (v.query ? `?${v.query}` : ''),
    headers: vectorHeaders(v.allHeadersAsSent),
    body: v.bodyText,
  });
}

/** An XPay answer: always HTTP 200, JSON, the R envelope. */
export function r<T = Record<string, unknown>>(a: RawAnswer): XpayR<T> {
  expect(a.status).toBe(200);
  expect(a.headers['content-type']).toContain('application/json');
  const body = JSON.parse(a.text) as XpayR<T>;
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg']);
  return body;
}
