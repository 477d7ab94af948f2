import { describe, expect, it } from 'vitest';
import { ordersAndNonces } from '../helpers/row-count.ts';
import { vectors } from '../helpers/xpay.ts';
import { type RequestVector, r, send, useFreshKassa } from '../helpers/xpay-requests.ts';

/**
 * The node SDK's request vectors of test/fixtures/xpay/vectors.json through the real HTTP stack: the
 * exact bytes and headers the real node SDK sent, against Kassa listening on a socket, for a merchant
 * in XPay mode that kept the vectors' apiKey and apiSecret. Every signed vector carries the same nonce
 * (the SDK's randomness was stubbed) and a nonce is good once per merchant, so each one runs against
 * a fresh database; the clock is the vectors' own.
 */

const fresh = useFreshKassa();

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
      const before = await ordersAndNonces(h);
      const body = r(await send(url, v));
      const data = JSON.parse(v.bodyText).data as Record<string, unknown>;
      if (want?.refused) {
        expect(body).toEqual({ code: 500, msg: want.refused, data: null });
        expect(await ordersAndNonces(h)).toEqual(before);
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
      const order = await h.rt.db.findOrderByMerchantOrderId(m.merchantId, data.orderId as string);
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
      expect(await ordersAndNonces(h)).toEqual({ orders: before.orders + 1, nonces: before.nonces + 1 });

      // the same bytes again are a replay: refused with XPay's text, nothing written
      const again = r(await send(url, v));
      expect(again).toEqual({
        code: 500,
        msg: `appId: , timestamp: ${v.timestamp}, nonce: ${v.nonce}`,
        data: null,
      });
      expect(await ordersAndNonces(h)).toEqual({ orders: before.orders + 1, nonces: before.nonces + 1 });
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
