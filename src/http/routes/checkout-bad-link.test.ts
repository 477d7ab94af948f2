import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckoutOrder,
  createCheckoutOrder,
  nextSecond,
  openCheckout,
} from '../../../test/checkout/orders.ts';
import { body, type Harness } from '../../../test/helpers/harness.ts';
import { signData } from '../../../test/helpers/signing.ts';
import { en } from '../../checkout/i18n/en.ts';
import { zh } from '../../checkout/i18n/zh.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

/** The checkout page for a link that is wrong, incomplete, another merchant's or a payout's: no order data shown. */

let h: Harness;
let m: MerchantCreated;
let o: CheckoutOrder;
beforeEach(async () => {
  ({ h, m, o } = await openCheckout());
});
afterEach(() => h.close());

describe('GET /checkout with a bad link', () => {
  const leaks = (html: string) =>
    ['C-1', o.address, '12 USDC', 'data-state', '<script'].filter((s) => html.includes(s));

  it('answers a wrong sign with a plain 401 page and no order data', async () => {
    const res = await h.app.request(`/checkout?orderId=C-1&sign=${signData('guess', 'C-1')}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'none'");
    const html = await res.text();
    expect(html).toContain(en.errorTitle);
    expect(html).toContain(en.errorInvalid);
    expect(leaks(html)).toEqual([]);
  });

  it('answers a missing sign or orderId with a 400 page', async () => {
    for (const path of ['/checkout?orderId=C-1', '/checkout', `/checkout?sign=${signData(m.token, 'C-1')}`]) {
      const res = await h.app.request(path);
      expect(res.status, path).toBe(400);
      const html = await res.text();
      expect(html).toContain(en.errorInvalid);
      expect(leaks(html)).toEqual([]);
    }
  });

  it('never shows another merchant’s order, even with a valid sign of its own', async () => {
    const other = await h.merchant('V3');
    nextSecond(h); // the merchant directory re-reads new merchants at most once a second
    const res = await h.app.request(`/checkout?orderId=C-1&sign=${signData(other.token, 'C-1')}`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain(en.errorNotFound);
    expect(leaks(html)).toEqual([]);
  });

  it('has no page for a payout', async () => {
    const tron = await createCheckoutOrder(h, m, {
      chain: 'TRON',
      symbol: 'USDT',
      amount: '1',
      orderId: 'T',
    });
    await h.fund(m, 'TRON', 'USDT', '1');
    const payout = await h.post('/v1/order/createPayout', m, {
      amount: '1',
      symbol: 'USDT',
      chain: 'TRON',
      receiveAddress: tron.address,
      orderId: 'P-1',
    });
    expect((await body(payout)).code).toBe(200);
    const res = await h.app.request(`/checkout?orderId=P-1&sign=${signData(m.token, 'P-1')}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(tron.address);
  });

  it('answers a Chinese reader in Chinese', async () => {
    const res = await h.app.request('/checkout?orderId=C-1&sign=00&lang=zh');
    const html = await res.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain(zh.errorTitle);
  });
});
