import { afterEach, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import {
  listen,
  type RawAnswer,
  rawRequest,
  vectorHeaders,
  vectorMerchant,
  vectors,
  XPAY_KEYS,
  type XpayR,
} from '../helpers/xpay.ts';

/**
 * Every request vector of test/fixtures/xpay/vectors.json through the real HTTP stack: the exact
 * bytes and headers the real node SDK sent (and the Java-rule bodies and queries), against Kassa
 * listening on a socket, for a merchant in XPay mode that kept the vectors' apiKey and apiSecret.
 * Every signed vector carries the same nonce (the SDK's randomness was stubbed) and a nonce is good
 * once per merchant, so each one runs against a fresh database; the clock is the vectors' own.
 */

const CLOCK = vectors.meta.fixedClockMs;
type RequestVector = (typeof vectors.requestVectors)[number];

let h: Harness | null = null;
let server: { url: string; close(): Promise<void> } | null = null;
afterEach(async () => {
  await server?.close();
  h?.close();
  server = null;
  h = null;
});

/** A fresh Kassa with the vectors' merchant, funded for the payout vectors, listening on a socket. */
async function fresh(): Promise<{ h: Harness; m: MerchantCreated; url: string }> {
  h = await makeHarness({}, { clockStart: CLOCK });
  const m = await vectorMerchant(h);
  await h.fund(m, 'TRON', 'USDT', '5');
  await h.fund(m, 'ETH', 'USDT', '1.5');
  server = await listen(h);
  return { h, m, url: server.url };
}

async function send(url: string, v: RequestVector): Promise<RawAnswer> {
  return rawRequest(url, {
    method: v.method,
    path: v.path + (v.query ? `?${v.query}` : ''),
    headers: vectorHeaders(v.allHeadersAsSent),
    body: v.bodyText,
  });
}

/** An XPay answer: always HTTP 200, JSON, the R envelope. */
function r<T = Record<string, unknown>>(a: RawAnswer): XpayR<T> {
  expect(a.status).toBe(200);
  expect(a.headers['content-type']).toContain('application/json');
  const body = JSON.parse(a.text) as XpayR<T>;
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg']);
  return body;
}

function counts(harness: Harness) {
  const one = (sql: string) => (harness.db.$client.prepare(sql).get() as { n: number }).n;
  return {
    orders: one('SELECT count(*) AS n FROM orders'),
    nonces: one('SELECT count(*) AS n FROM request_nonces'),
  };
}

/** What each request vector must get from Kassa (see docs/xpay-migration.md for the why of each). */
const EXPECTED: Record<string, { amount?: string; base?: bigint; refused?: string; payout?: boolean }> = {
  'req-1': { amount: '10', base: 10_000000n },
  'req-2': { amount: '10', base: 10_000000n },
  'req-3': { amount: '10.00', base: 10_000000n },
  'req-4': { amount: '10.00', base: 10_000000n },
  'req-5': { amount: '10', base: 10_000000n },
  // the node SDK's renderings XPay's server refuses: Kassa accepts them (issue 13)
  'req-6': { amount: '10', base: 10_000000n },
  'req-8': { amount: '10', base: 10_000000n },
  'req-9': { amount: '10.5', base: 10_500000n },
  'req-10': { amount: '0.0001', base: 100n },
  'req-11': { amount: '12345678.5', base: 12345678_500000n },
  'req-12': { amount: '1000000000000000000000', base: 10n ** 27n },
  'req-13': { amount: '10', base: 10_000000n },
  'req-14': { amount: '1', base: 1_000000n, payout: true },
  'req-15': { amount: '1.50', base: 1_500000n, payout: true },
  // signed `uid=undefined` for a member the body does not have: refused, as XPay refuses it
  'req-7': { refused: 'Signature error 3c801fe705c9acd3257d93c003ce1319f4945aacf43b25ad439b12b491098451' },
};

describe('the node SDK’s captured requests, byte for byte over HTTP', () => {
  for (const v of vectors.requestVectors.filter((x) => x.method === 'POST')) {
    const want = EXPECTED[v.id];
    it(`${v.id} (${v.label}): ${want?.refused ? 'refused' : 'accepted'}`, async () => {
      expect(want).toBeDefined();
      const { h, m, url } = await fresh();
      const before = counts(h);
      const body = r(await send(url, v));
      const data = JSON.parse(v.bodyText).data as Record<string, unknown>;
      if (want?.refused) {
        expect(body).toEqual({ code: 500, msg: want.refused, data: null });
        expect(counts(h)).toEqual(before);
        return;
      }
      expect(body.code, JSON.stringify(body)).toBe(200);
      expect(body.msg).toBe('操作成功');
      expect(body.data).toMatchObject({
        orderId: data.orderId,
        amount: want?.amount,
        chain: data.chain,
        symbol: data.symbol,
      });
      const order = findOrderByMerchantOrderId(h.db, m.merchantId, data.orderId as string);
      expect(order?.amountBase).toBe(want?.base);
      expect(order?.uid).toBe((data.uid as string | undefined) ?? null);
      if (want?.payout) {
        expect(order?.type).toBe('PAYOUT');
        expect(body.data.address).toBe(data.receiveAddress);
        expect(body.data.receiveAddress).toBe(data.receiveAddress);
        expect(body.data.status).toBe('INIT');
      } else {
        expect(order?.type).toBe('COLLECTION');
        expect(body.data.address).toBe(order?.address);
        expect(body.data.paymentUrl).toMatch(/\/checkout\?orderId=.+&sign=[0-9a-f]{64}$/);
      }
      expect(counts(h)).toEqual({ orders: before.orders + 1, nonces: before.nonces + 1 });

      // the same bytes again are a replay: refused with XPay's text, nothing written
      const again = r(await send(url, v));
      expect(again).toEqual({
        code: 500,
        msg: `appId: , timestamp: ${v.timestamp}, nonce: ${v.nonce}`,
        data: null,
      });
      expect(counts(h)).toEqual({ orders: before.orders + 1, nonces: before.nonces + 1 });
    });
  }

  it('req-16 to req-18: the token list, with and without the unsigned filters the node SDK sends', async () => {
    const { url } = await fresh();
    const [all, tronUsdt, eth] = ['req-16', 'req-17', 'req-18'].map(
      (id) => vectors.requestVectors.find((x) => x.id === id) as RequestVector,
    );
    const list = r<{ chain: string; symbol: string; contractAddress: string | null; decimals: number }[]>(
      await send(url, all as RequestVector),
    );
    expect(list.code).toBe(200);
    expect(list.data.length).toBeGreaterThan(5);
    const filtered = r<typeof list.data>(await send(url, tronUsdt as RequestVector));
    expect(filtered.data).toEqual([
      { symbol: 'USDT', chain: 'TRON', contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
    ]);
    const ethOnly = r<typeof list.data>(await send(url, eth as RequestVector));
    expect(ethOnly.data.length).toBeGreaterThan(0);
    expect(ethOnly.data.every((s) => s.chain === 'ETH')).toBe(true);
  });

  for (const [statusId, createId] of [
    ['req-19', 'req-1'],
    ['req-20', 'req-5'],
  ] as const) {
    it(`${statusId}: the order status with the token alone, in XPay's NotifyOrder`, async () => {
      const { url } = await fresh();
      const create = vectors.requestVectors.find((x) => x.id === createId) as RequestVector;
      const created = r<{ orderId: string }>(await send(url, create));
      expect(created.code).toBe(200);
      const v = vectors.requestVectors.find((x) => x.id === statusId) as RequestVector;
      const status = r(await send(url, v));
      expect(status).toEqual({
        code: 200,
        msg: '操作成功',
        data: {
          orderId: created.data.orderId,
          uid: 'user-42',
          orderType: 'COLLECTION',
          reason: null,
          status: 'INIT',
          amount: '10',
          actualAmount: null,
          fee: '0.00',
          transaction: null,
        },
      });
    });
  }

  it('req-21: an orderId the SDK put in the path unencoded (a b/c?d=1#e) finds no route: XPay’s 404 envelope', async () => {
    const { url } = await fresh();
    const v = vectors.requestVectors.find((x) => x.id === 'req-21') as RequestVector;
    expect(r(await send(url, v))).toEqual({ code: 404, msg: 'Not found.', data: null });
  });
});

/** What each POST Java-rule vector must get: the amount as the rule that signed it reads it. */
const JAVA_EXPECTED: Record<string, { java?: string; node?: string; refused?: string }> = {
  'java-1': { java: '50.0', node: '50' },
  'java-2': { java: '1.0', node: '1' },
  'java-3': { java: '1000000000000000000000', node: '1000000000000000000000' },
  'java-4': { java: '100.0', node: '100' },
  'java-5': { java: '0.00010', node: '0.0001' },
  'java-6': { java: '12345678.5', node: '12345678.5' },
  'java-7': { java: '1234567.5', node: '1234567.5' },
  // Java keeps every digit of an integer; the node SDK signed the double nearest to it
  'java-8': { java: '12345678901234567890', node: '12345678901234567000' },
  'java-9': { java: '10', node: '10' },
  'java-10': { java: '10', node: '10' },
  'java-11': { java: '10' },
  'java-12': { java: '10', node: '10' },
  'java-13': { refused: 'The data cannot be left blank.' },
  'java-14': { java: '10', node: '10' },
  'java-15': { java: '10', node: '10' },
};

describe('the Java SDK’s and XPay server’s rule, over HTTP', () => {
  for (const v of vectors.javaRuleVectors.filter((x) => x.kind === 'POST body')) {
    const want = JAVA_EXPECTED[v.id] ?? {};
    for (const rule of ['java', 'node'] as const) {
      const sign = rule === 'java' ? v.javaSign : v.nodeRuleSign;
      if (!sign) continue;
      it(`${v.id} signed by the ${rule} rule (${v.label})`, async () => {
        const { h, m, url } = await fresh();
        const before = counts(h);
        const answer = r(
          await rawRequest(url, {
            method: 'POST',
            path: '/v1/order/createCollection',
            headers: { 'X-API-TOKEN': XPAY_KEYS.token, 'Content-Type': 'application/json' },
            body: (v.bodyText as string).replace('"<ignored>"', JSON.stringify(sign)),
          }),
        );
        if (want.refused) {
          expect(answer).toEqual({ code: 500, msg: want.refused, data: null });
          // authenticated, then refused for its data: the nonce is spent, nothing else is written
          expect(counts(h)).toEqual({ orders: before.orders, nonces: before.nonces + 1 });
          return;
        }
        expect(answer.code, JSON.stringify(answer)).toBe(200);
        expect((answer.data as { amount: string }).amount).toBe(want[rule]);
        const order = findOrderByMerchantOrderId(h.db, m.merchantId, 'order-1');
        expect(order?.amount).toBe(want[rule]);
      });
    }
  }

  it('java-16: getBalance, a signed query, answers the symbol’s balance over every chain from the ledger', async () => {
    const { url } = await fresh();
    const v = vectors.javaRuleVectors.find((x) => x.id === 'java-16');
    const answer = r(
      await rawRequest(url, {
        method: 'GET',
        path: `/v1/merchant/getBalance?${v?.query}`,
        headers: {
          'X-API-TOKEN': XPAY_KEYS.token,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
      }),
    );
    expect(answer).toMatchObject({
      code: 200,
      data: { symbol: 'USDT', balance: '6.50', frozenBalance: '0.00', totalBalance: '6.50' },
    });
    expect((answer.data as { updateTime: string }).updateTime).toBe('2024-05-29 16:26:40');
  });

  it('java-17: getCryptoAddress is authenticated, then refused with XPay’s text for per-order addresses', async () => {
    const { url } = await fresh();
    const v = vectors.javaRuleVectors.find((x) => x.id === 'java-17');
    const answer = r(
      await rawRequest(url, {
        method: 'GET',
        path: `/v1/merchant/getCryptoAddress?${v?.query}`,
        headers: { 'X-API-TOKEN': XPAY_KEYS.token },
      }),
    );
    expect(answer).toEqual({ code: 500, msg: 'Address acquisition is not supported.', data: null });
  });

  it('java-18: a signed supportSymbols query is checked and answered', async () => {
    const { url } = await fresh();
    const v = vectors.javaRuleVectors.find((x) => x.id === 'java-18');
    const answer = r(
      await rawRequest(url, {
        method: 'GET',
        path: `/v1/symbol/supportSymbols?${v?.query}`,
        headers: { 'X-API-TOKEN': XPAY_KEYS.token },
      }),
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toEqual([
      { symbol: 'USDT', chain: 'TRON', contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
    ]);
    const tampered = r(
      await rawRequest(url, {
        method: 'GET',
        path: `/v1/symbol/supportSymbols?${v?.query?.replace('symbol=USDT', 'symbol=USDC')}`,
        headers: { 'X-API-TOKEN': XPAY_KEYS.token },
      }),
    );
    expect(tampered.code).toBe(500);
    expect(tampered.msg).toMatch(/^Signature error [0-9a-f]{64}$/);
  });
});
