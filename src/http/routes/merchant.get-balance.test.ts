import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

const PATH = '/v1/merchant/getBalance';
let h: Harness;
let m: MerchantCreated;

beforeEach(async () => {
  h = await makeHarness({ orders: { handlingFee: '0.25' } });
  m = await h.merchant('V3');
});
afterEach(() => h.close());

describe('POST /v1/merchant/getBalance', () => {
  it('answers only with the signing merchant’s balances, frozen payouts included', async () => {
    const other = await h.merchant('V3');
    h.clock.advance(1000);
    await h.fund(m, 'TRON', 'USDT', '10');
    await h.fund(other, 'TRON', 'USDT', '999');
    const payout = await h.post('/v1/order/createPayout', m, {
      amount: '4',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'p',
      receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(payout.status).toBe(200);
    const r = await body<unknown[]>(await h.post(PATH, m, { chain: 'TRON', symbol: 'USDT' }));
    expect(r).toEqual({
      code: 200,
      msg: 'success',
      data: [
        {
          chain: 'TRON',
          symbol: 'USDT',
          balance: '5.75',
          frozenBalance: '4.25',
          totalBalance: '10.00',
          updateTime: Math.floor(h.clock.now() / 1000),
        },
      ],
    });
  });

  it('lists every token offered when no filter is given, zero where nothing moved', async () => {
    const r = await body<{ chain: string; symbol: string; balance: string; updateTime: number | null }[]>(
      await h.post(PATH, m, {}),
    );
    expect(r.code).toBe(200);
    expect(r.data.length).toBeGreaterThan(6);
    expect(r.data.every((b) => b.balance === '0.00' && b.updateTime === null)).toBe(true);
    const eth = await body<{ symbol: string }[]>(await h.post(PATH, m, { chain: 'ETH' }));
    expect(eth.data.map((b) => b.symbol)).toEqual(['USDT', 'USDC', 'ETH']);
  });

  it('is signed like every POST: a bad signature is 401 and shows nothing', async () => {
    const res = await h.post(PATH, m, {}, { sign: 'ab'.repeat(32) });
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ code: 401, msg: 'Invalid signature.', data: null });
  });

  it('refuses an unknown chain with 400', async () => {
    expect(await body(await h.post(PATH, m, { chain: 'DOGE' }))).toEqual({
      code: 400,
      msg: 'The chain is not supported.',
      data: null,
    });
  });
});
