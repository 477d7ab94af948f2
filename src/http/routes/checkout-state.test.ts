import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckoutOrder,
  createCheckoutOrder,
  moveOrder,
  openCheckout,
  readOrder,
  transferTo,
} from '../../../test/checkout/orders.ts';
import { body, type Harness } from '../../../test/helpers/harness.ts';
import { signData } from '../../../test/helpers/signing.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

/** GET /checkout/state, what the checkout page polls: the order's state and progress, rate-limited, signed. */

let h: Harness;
let m: MerchantCreated;
let o: CheckoutOrder;
beforeEach(async () => {
  ({ h, m, o } = await openCheckout());
});
afterEach(() => h.close());

const statePath = (path: string) => path.replace('/checkout?', '/checkout/state?');

describe('GET /checkout/state', () => {
  it('returns the PayinOrderVo fields of /v1/order/pay plus the progress the page shows', async () => {
    const order = readOrder(h, o);
    moveOrder(h, o, 'covered_seen', {
      receivedBase: order.amountBase,
      transaction: transferTo(order, order.amountBase, { txid: '0xfeed', confirmedNum: 3 }),
    });
    const r = await body<Record<string, unknown>>(await h.app.request(statePath(o.path)));
    const pay = await body<Record<string, unknown>>(await h.getSigned('/v1/order/pay', m, 'C-1'));
    expect(r.code).toBe(200);
    expect(r.data).toEqual({
      ...pay.data,
      received: '12.00',
      remaining: '0.00',
      confirmations: 3,
      confirmationsRequired: null,
      txid: '0xfeed',
      explorerUrl: 'https://etherscan.io/tx/0xfeed',
      serverTime: h.clock.now(),
      final: false,
    });
    expect(pay.data.status).toBe('PENDING_CONFIRMATION');
  });

  it('gives a chain with a block count its required confirmations', async () => {
    const avax = await createCheckoutOrder(h, m, {
      chain: 'AVAX_C_CHAIN',
      symbol: 'USDT',
      amount: '1',
      orderId: 'A',
    });
    const r = await body<{ confirmationsRequired: number }>(await h.app.request(statePath(avax.path)));
    expect(r.data.confirmationsRequired).toBe(1);
  });

  it('allows 2 requests a second per order, like /v1/order/pay, apart from page loads', async () => {
    const url = statePath(o.path);
    expect((await h.app.request(url)).status).toBe(200);
    expect((await h.app.request(url)).status).toBe(200);
    const third = await h.app.request(url);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(await body(third)).toEqual({ code: 429, msg: 'Too many requests. Please slow down.', data: null });
    // The page itself and the merchant's /v1/order/pay keep their own budgets.
    expect((await h.app.request(o.path)).status).toBe(200);
    expect((await h.getSigned('/v1/order/pay', m, 'C-1')).status).toBe(200);
    h.clock.advance(2000);
    expect((await h.app.request(url)).status).toBe(200);
  });

  it('refuses a wrong sign in the R<T> envelope', async () => {
    const res = await h.app.request(`/checkout/state?orderId=C-1&sign=${signData('guess', 'C-1')}`);
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ code: 401, msg: 'Invalid signature.', data: null });
  });
});
