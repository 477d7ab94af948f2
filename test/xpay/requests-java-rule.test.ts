import { describe, expect, it } from 'vitest';
import { ordersAndNonces } from '../helpers/row-count.ts';
import { rawRequest, vectors, XPAY_KEYS } from '../helpers/xpay.ts';
import { r, useFreshKassa } from '../helpers/xpay-requests.ts';

/**
 * The Java-rule vectors of test/fixtures/xpay/vectors.json through the real HTTP stack: bodies and
 * queries signed by the Java SDK's (and XPay server's) rule and by the node SDK's, against Kassa
 * listening on a socket, for a merchant in XPay mode that kept the vectors' apiKey and apiSecret.
 * Each runs against a fresh database (a nonce is good once per merchant); the clock is the vectors' own.
 */

const fresh = useFreshKassa();

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
        const before = await ordersAndNonces(h);
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
          expect(await ordersAndNonces(h)).toEqual({ orders: before.orders, nonces: before.nonces + 1 });
          return;
        }
        expect(answer.code, JSON.stringify(answer)).toBe(200);
        expect((answer.data as { amount: string }).amount).toBe(want[rule]);
        const order = await h.rt.db.findOrderByMerchantOrderId(m.merchantId, 'order-1');
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
