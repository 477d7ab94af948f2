import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { signData } from '../../../test/helpers/signing.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

let h: Harness;
let a: MerchantCreated;
let b: MerchantCreated;
let deposit: string;

beforeEach(async () => {
  h = await makeHarness();
  a = await h.merchant('V3');
  b = await h.merchant('V3');
  const r = await h.post('/v1/order/createCollection', a, {
    amount: '12',
    symbol: 'USDC',
    chain: 'ETH',
    orderId: 'Q-1',
    uid: 'u7',
  });
  deposit = ((await r.json()) as { data: { address: string } }).data.address;
});
afterEach(() => h.close());

describe('order queries', () => {
  it('GET /v1/order/status/{orderId} returns the NotifyOrder', async () => {
    const r = await body(await h.getSigned('/v1/order/status/{orderId}', a, 'Q-1'));
    expect(r).toEqual({
      code: 200,
      msg: 'success',
      data: {
        orderId: 'Q-1',
        uid: 'u7',
        orderType: 'COLLECTION',
        status: 'INIT',
        reason: null,
        amount: '12',
        actualAmount: null,
        fee: '0.00',
        transaction: null,
      },
    });
  });

  it('GET /v1/order/pay returns the PayinOrderVo', async () => {
    const r = await body(await h.getSigned('/v1/order/pay', a, 'Q-1'));
    expect(r.data).toEqual({
      orderId: 'Q-1',
      chain: 'ETH',
      symbol: 'USDC',
      address: deposit,
      amount: '12',
      actualAmount: null,
      expiredTime: Math.floor(h.clock.now() / 1000) + 1800,
      status: 'INIT',
      reason: null,
    });
  });

  it('GET /v1/order/getOrderStatus returns only the status', async () => {
    expect((await body(await h.getSigned('/v1/order/getOrderStatus', a, 'Q-1'))).data).toEqual({
      status: 'INIT',
    });
  });

  it('never shows one merchant another merchant’s order', async () => {
    for (const path of ['/v1/order/status/{orderId}', '/v1/order/pay', '/v1/order/getOrderStatus']) {
      const res = await h.getSigned(path, b, 'Q-1');
      expect(res.status).toBe(404);
      expect(await body(res)).toEqual({ code: 404, msg: 'Order not found.', data: null });
    }
  });

  it('refuses a wrong or missing sign', async () => {
    const wrong = await h.app.request(`/v1/order/pay?orderId=Q-1&sign=${signData('guess', 'Q-1')}`);
    expect(wrong.status).toBe(401);
    expect((await body(wrong)).msg).toBe('Invalid signature.');
    const status = await h.app.request(`/v1/order/status/Q-1?sign=${signData(a.token, 'Q-2')}`);
    expect(status.status).toBe(401);
    const missing = await h.app.request('/v1/order/getOrderStatus?orderId=Q-1');
    expect(missing.status).toBe(400);
    expect((await body(missing)).msg).toBe('The sign cannot be left blank.');
  });

  it('answers 404 for an unknown orderId with a valid signature', async () => {
    const res = await h.getSigned('/v1/order/status/{orderId}', a, 'nope');
    expect(res.status).toBe(404);
  });
});

describe('GET /v1/symbol/supportSymbols', () => {
  it('lists every configured token without authentication, with the contract and decimals', async () => {
    const r = await body<
      { symbol: string; chain: string; contractAddress: string | null; decimals: number }[]
    >(await h.app.request('/v1/symbol/supportSymbols'));
    expect(r.code).toBe(200);
    expect(r.data).toContainEqual({
      symbol: 'USDT',
      chain: 'BSC',
      contractAddress: '0x55d398326f99059fF775485246999027B3197955',
      decimals: 18,
    });
    expect(r.data).toContainEqual({ symbol: 'TRX', chain: 'TRON', contractAddress: null, decimals: 6 });
    expect(new Set(r.data.map((t) => t.chain))).toEqual(
      new Set(['TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI']),
    );
  });

  it('filters by chain and by symbol', async () => {
    const r = await body<{ symbol: string; chain: string }[]>(
      await h.app.request('/v1/symbol/supportSymbols?chain=SUI&symbol=usdc'),
    );
    expect(r.data).toEqual([
      {
        symbol: 'USDC',
        chain: 'SUI',
        contractAddress: '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
        decimals: 6,
      },
    ]);
    const none = await body<unknown[]>(await h.app.request('/v1/symbol/supportSymbols?chain=DOGE'));
    expect(none.data).toEqual([]);
  });
});
