import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

let h: Harness;
let m: MerchantCreated;

beforeEach(async () => {
  h = await makeHarness({ rateLimits: { merchants: {} } });
  m = await h.merchant('V3');
  await h.post('/v1/order/createCollection', m, {
    amount: '1',
    symbol: 'USDT',
    chain: 'TRON',
    orderId: 'R-0',
  });
  h.clock.advance(20_000); // start every limit with two empty windows behind it
});
afterEach(() => h.close());

async function expect429(res: Response) {
  expect(res.status).toBe(429);
  expect(await body(res)).toEqual({ code: 429, msg: 'Too many requests. Please slow down.', data: null });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('default rate limits: the request after the limit gets 429 with Retry-After', () => {
  it('createCollection: 100 per 10 s per merchant', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await h.post('/v1/order/createCollection', m, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: `R-${i + 1}`,
      });
      expect(res.status).toBe(200);
    }
    await expect429(
      await h.post('/v1/order/createCollection', m, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'R-x',
      }),
    );
    const other = await h.merchant('V3');
    h.clock.advance(1000); // a merchant created a moment ago is found once the directory is re-read
    expect(
      (
        await h.post('/v1/order/createCollection', other, {
          amount: '1',
          symbol: 'USDT',
          chain: 'TRON',
          orderId: 'o',
        })
      ).status,
    ).toBe(200);
  });

  it('createPayout: 100 per 10 s, and a refused request does not burn its nonce', async () => {
    await h.fund(m, 'TRON', 'USDT', '1000');
    const data = (i: number) => ({
      amount: '1',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: `P-${i}`,
      receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    for (let i = 0; i < 100; i++)
      expect((await h.post('/v1/order/createPayout', m, data(i))).status).toBe(200);
    await expect429(await h.post('/v1/order/createPayout', m, data(100), { nonce: 'kept' }));
    h.clock.advance(20_000);
    expect((await h.post('/v1/order/createPayout', m, data(100), { nonce: 'kept' })).status).toBe(200);
  });

  it('status/{orderId}: 1000 per 10 s per merchant', async () => {
    for (let i = 0; i < 1000; i++)
      expect((await h.getSigned('/v1/order/status/{orderId}', m, 'R-0')).status).toBe(200);
    await expect429(await h.getSigned('/v1/order/status/{orderId}', m, 'R-0'));
  });

  it('pay: 2 per second per orderId', async () => {
    await h.post('/v1/order/createCollection', m, {
      amount: '1',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'R-9',
    });
    expect((await h.getSigned('/v1/order/pay', m, 'R-0')).status).toBe(200);
    expect((await h.getSigned('/v1/order/pay', m, 'R-0')).status).toBe(200);
    await expect429(await h.getSigned('/v1/order/pay', m, 'R-0'));
    expect((await h.getSigned('/v1/order/pay', m, 'R-9')).status).toBe(200);
    h.clock.advance(2_000);
    expect((await h.getSigned('/v1/order/pay', m, 'R-0')).status).toBe(200);
  });

  it('getOrderStatus: 2 per second per orderId', async () => {
    expect((await h.getSigned('/v1/order/getOrderStatus', m, 'R-0')).status).toBe(200);
    expect((await h.getSigned('/v1/order/getOrderStatus', m, 'R-0')).status).toBe(200);
    await expect429(await h.getSigned('/v1/order/getOrderStatus', m, 'R-0'));
  });

  it('supportSymbols: 50 per 10 s per client IP', async () => {
    for (let i = 0; i < 50; i++) expect((await h.app.request('/v1/symbol/supportSymbols')).status).toBe(200);
    await expect429(await h.app.request('/v1/symbol/supportSymbols'));
  });
});

describe('per-merchant limits from configuration', () => {
  it('applies a merchant’s own createCollection limit', async () => {
    const h2 = await makeHarness();
    try {
      const fast = await h2.merchant('V3');
      h2.rt.config.rateLimits.merchants[fast.merchantId] = {
        createCollection: { limit: 3, windowSeconds: 10 },
      };
      for (let i = 0; i < 3; i++) {
        expect(
          (
            await h2.post('/v1/order/createCollection', fast, {
              amount: '1',
              symbol: 'USDT',
              chain: 'TRON',
              orderId: `f${i}`,
            })
          ).status,
        ).toBe(200);
      }
      await expect429(
        await h2.post('/v1/order/createCollection', fast, {
          amount: '1',
          symbol: 'USDT',
          chain: 'TRON',
          orderId: 'f3',
        }),
      );
    } finally {
      await h2.close();
    }
  });
});

describe('several API processes (api.processes)', () => {
  it('refuses after half the limit in a process configured as one of two', async () => {
    const h2 = await makeHarness({
      api: { processes: 2 },
      rateLimits: { merchants: {}, createCollection: { limit: 7, windowSeconds: 10 } },
    });
    try {
      const shop = await h2.merchant('V3');
      const create = (orderId: string) =>
        h2.post('/v1/order/createCollection', shop, { amount: '1', symbol: 'USDT', chain: 'TRON', orderId });
      // ceil(7 / 2) = 4 here; the other process admits its own 4
      for (let i = 0; i < 4; i++) expect((await create(`half-${i}`)).status).toBe(200);
      await expect429(await create('half-4'));
      // a merchant's own limit is divided the same way
      h2.rt.config.rateLimits.merchants[shop.merchantId] = { status: { limit: 4, windowSeconds: 10 } };
      for (let i = 0; i < 2; i++)
        expect((await h2.getSigned('/v1/order/status/{orderId}', shop, 'half-0')).status).toBe(200);
      await expect429(await h2.getSigned('/v1/order/status/{orderId}', shop, 'half-0'));
    } finally {
      await h2.close();
    }
  });
});
