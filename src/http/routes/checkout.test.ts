import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckoutOrder,
  createCheckoutOrder,
  moveOrder,
  payInFull,
  readOrder,
  transferTo,
} from '../../../test/checkout/orders.ts';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { checkoutLinkSign, signData } from '../../../test/helpers/signing.ts';
import { en } from '../../checkout/i18n/en.ts';
import { zh } from '../../checkout/i18n/zh.ts';
import { createMerchant, type MerchantCreated } from '../../services/manage-merchants.ts';

let h: Harness;
let m: MerchantCreated;
let o: CheckoutOrder;

beforeEach(async () => {
  h = await makeHarness();
  m = await h.merchant('V3');
  o = await createCheckoutOrder(h, m, { chain: 'ETH', symbol: 'USDC', amount: '12', orderId: 'C-1' });
});
afterEach(() => h.close());

/** The panel the page shows (the one without `hidden`). */
const visiblePanels = (html: string) => [...html.matchAll(/<div data-panel="(\w+)">/g)].map((x) => x[1]);
/** Moves the clock past the rate-limit window, so each test request is admitted. */
const nextSecond = () => h.clock.advance(1000);

describe('GET /checkout', () => {
  it('is the paymentUrl that createCollection returns, signed with the checkout link key', () => {
    expect(o.paymentUrl).toBe(
      `http://localhost:180/checkout?orderId=C-1&sign=${checkoutLinkSign(m.token, 'C-1')}`,
    );
  });

  it('also opens with the merchant’s own sign of the orderId (links made before checkout signs)', async () => {
    const res = await h.app.request(`/checkout?orderId=C-1&sign=${signData(m.token, 'C-1')}`);
    expect(res.status).toBe(200);
    expect(visiblePanels(await res.text())).toEqual(['waiting']);
  });

  it('sends a strict CSP whose nonce is the one on the only style and script', async () => {
    const res = await h.app.request(o.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((x) => x[0])).toEqual([`<script nonce="${nonce}">`]);
    expect([...html.matchAll(/<style\b[^>]*>/g)].map((x) => x[0])).toEqual([`<style nonce="${nonce}">`]);
    // Inline style attributes and event handlers would be blocked by this CSP: the page has none.
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/);
    // Self-contained: nothing is loaded from anywhere.
    expect(html).not.toMatch(/\s(src|srcset)=|<link\b|@import|url\(/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const again = await h.app.request(o.path);
    expect(again.headers.get('content-security-policy')).not.toContain(nonce);
  });

  it('lets only the configured origins frame it', async () => {
    const h2 = await makeHarness({
      checkout: {
        frameAncestors: ['https://shop.example', "https://evil.example; script-src 'unsafe-inline'"],
      },
    });
    try {
      const m2 = await h2.merchant('V3');
      const o2 = await createCheckoutOrder(h2, m2, {
        chain: 'TRON',
        symbol: 'USDT',
        amount: '1',
        orderId: 'F',
      });
      const res = await h2.app.request(o2.path);
      expect(res.headers.get('content-security-policy')).toMatch(
        /; frame-ancestors https:\/\/shop\.example$/,
      );
      expect(res.headers.get('x-frame-options')).toBeNull();
    } finally {
      await h2.close();
    }
  });

  it('stays under 50 KB before the QR code', async () => {
    const html = await (await h.app.request(o.path)).text();
    const svg = /<svg[\s\S]*<\/svg>/.exec(html)?.[0] ?? '';
    expect(svg.length).toBeGreaterThan(1000);
    const bytes = Buffer.byteLength(html);
    const withoutQr = bytes - Buffer.byteLength(svg);
    expect(withoutQr).toBeLessThan(50_000);
    console.info(`checkout page: ${bytes} bytes, ${withoutQr} without the QR code`);
  });

  it('escapes the orderId and the merchant name everywhere it shows them', async () => {
    const evil = await createMerchant(h.rt, { kind: 'V3', name: '<b>Evil</b> & "Co"' });
    nextSecond(); // the merchant directory re-reads new merchants at most once a second
    const id = `<img src=x onerror=alert(1)>"'`;
    const e = await createCheckoutOrder(h, evil, { chain: 'SUI', symbol: 'USDC', amount: '3', orderId: id });
    const html = await (await h.app.request(e.path)).text();
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>Evil');
    expect(html).toContain('Payment to &lt;b&gt;Evil&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // The state for the script sits in an attribute: its quotes are entities, so it cannot break out.
    const attr = /data-state="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(attr).toContain('&quot;orderId&quot;:&quot;&lt;img src=x onerror=alert(1)&gt;\\&quot;');
  });

  it('shows the network in words, the warning, the address and the countdown', async () => {
    const html = await (await h.app.request(o.path)).text();
    expect(html).toContain('<dd id="network">Ethereum</dd>');
    expect(html).toContain(
      'Send only USDC on Ethereum to this address. Funds sent as another token or on another network are lost.',
    );
    expect(html).toContain(`<p id="address" class="mono address">${o.address}</p>`);
    expect(html).toContain('<strong id="countdown" role="timer">30:00</strong>');
    expect(visiblePanels(html)).toEqual(['waiting']);
  });

  it('renders each state with its message, without JavaScript', async () => {
    const order = readOrder(h, o);
    moveOrder(h, o, 'partial_seen', {
      receivedBase: 5_000000n,
      transaction: transferTo(order, 5_000000n, { confirmedNum: 2 }),
    });
    nextSecond();
    let html = await (await h.app.request(o.path)).text();
    expect(visiblePanels(html)).toEqual(['seen']);
    expect(html).toContain('Received so far: <span data-f="received">5.00</span> of 12 USDC.');
    expect(html).toContain('Send the remaining <span data-f="remaining">7.00</span> USDC');
    expect(html).toContain('<meta http-equiv="refresh" content="10"/>');

    payInFull(h, o, `0x${'cd'.repeat(32)}`);
    nextSecond();
    html = await (await h.app.request(o.path)).text();
    expect(visiblePanels(html)).toEqual(['paid']);
    expect(html).toContain(`href="https://etherscan.io/tx/0x${'cd'.repeat(32)}"`);
    expect(html).toContain('<div id="pay" hidden="">');
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it('shows an open order past its time as expired, before the worker marks it', async () => {
    h.clock.advance(31 * 60_000);
    const html = await (await h.app.request(o.path)).text();
    expect(visiblePanels(html)).toEqual(['expired']);
    expect(html).toContain('<div id="pay" hidden="">');
  });

  it('shows a failed payment with its reason', async () => {
    moveOrder(h, o, 'failed', { reason: 'The paying transaction was removed by a reorganisation.' });
    const html = await (await h.app.request(o.path)).text();
    expect(visiblePanels(html)).toEqual(['failed']);
    expect(html).toContain(
      '<span data-f="reason">The paying transaction was removed by a reorganisation.</span>',
    );
  });

  it('speaks Chinese when asked by Accept-Language or ?lang=, and ?lang= wins', async () => {
    const zhPage = await (
      await h.app.request(o.path, { headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' } })
    ).text();
    expect(zhPage).toContain('<html lang="zh-CN">');
    expect(zhPage).toContain(zh.waitingTitle);
    expect(zhPage).toContain('请仅通过 以太坊 (Ethereum) 网络向此地址发送 USDC。');
    nextSecond();
    const forced = await (
      await h.app.request(`${o.path}&lang=en`, { headers: { 'accept-language': 'zh-CN' } })
    ).text();
    expect(forced).toContain('<html lang="en">');
    expect(forced).toContain(en.waitingTitle);
    nextSecond();
    expect(await (await h.app.request(`${o.path}&lang=zh`)).text()).toContain(zh.waitingTitle);
  });
});

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
    nextSecond(); // the merchant directory re-reads new merchants at most once a second
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
