import { describe, expect, it } from 'vitest';
import { en } from '../../src/checkout/i18n/en.ts';
import { zh } from '../../src/checkout/i18n/zh.ts';
import { readQr, serveApp, watchProblems } from '../helpers/browser.ts';
import { useCheckoutBrowser } from '../helpers/checkout-browser.ts';
import { signData } from '../helpers/signing.ts';
import { moveOrder } from './orders.ts';

/**
 * The checkout page in real Chromium, against the app served on 127.0.0.1, where and to whom it is
 * shown: a 320 px phone screen, a Chinese browser, a framing shop, and a bad link. One browser and
 * one reused page for the file.
 */
const s = useCheckoutBrowser();
const { order, open, text } = s;

describe('checkout page in Chromium', () => {
  it('keeps a 320 px phone screen free of horizontal scrolling for every chain family', async () => {
    const phone = await s.context.newPage();
    const phoneProblems = watchProblems(phone);
    await phone.setViewportSize({ width: 320, height: 640 });
    for (const [chain, symbol, amount] of [
      ['ETH', 'USDC', '123456.123456'],
      ['SUI', 'USDC', '1'],
      ['TRON', 'USDT', '1'],
      ['POLYGON', 'POL', '0.000000000000000001'],
    ] as const) {
      const o = await order(chain, symbol, amount);
      await open(o, phone);
      const overflow = await phone.evaluate(() => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        address: (() => {
          const a = document.getElementById('address') as HTMLElement;
          return a.scrollWidth - a.clientWidth;
        })(),
        qr: (document.querySelector('#qr .qr') as HTMLElement).getBoundingClientRect().right,
      }));
      expect(overflow.page, chain).toBe(0);
      expect(overflow.address, chain).toBe(0);
      expect(overflow.qr, chain).toBeLessThanOrEqual(320);
      expect(await readQr(phone, '#qr .qr'), chain).toContain(o.address);
    }
    await phone.close();
    expect(phoneProblems).toEqual([]);
  });

  it('speaks Chinese to a Chinese browser and switches language by link', async () => {
    const zhContext = await s.browser.newContext({ locale: 'zh-CN' });
    const zhPage = await zhContext.newPage();
    const zhProblems = watchProblems(zhPage);
    const o = await order('TRON', 'USDT', '8');
    await open(o, zhPage);
    expect(await zhPage.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await text('[data-panel="waiting"] h2', zhPage)).toBe(zh.waitingTitle);
    expect(await text('#warning', zhPage)).toBe(
      '请仅通过 波场 (TRON) 网络向此地址发送 USDT。发送其他代币或使用其他网络，资金将会丢失。',
    );
    expect(await text('#timer span', zhPage)).toBe(zh.timeLeft);
    await zhPage.getByRole('link', { name: 'English' }).click();
    await zhPage.waitForURL(/lang=en/);
    expect(await text('[data-panel="waiting"] h2', zhPage)).toBe(en.waitingTitle);
    await zhContext.close();
    expect(zhProblems).toEqual([]);
  });

  it('tells the framing shop when the order is final, and cannot be framed by anyone else', async () => {
    const o = await order('AVAX_C_CHAIN', 'USDC', '4');
    const parent = `<!doctype html><iframe src="${s.served.url}${o.path}" width="400" height="800"></iframe>
      <script>
        window.received = [];
        addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));
      </script>`;
    // A second loopback server plays the shop: http://localhost:<port> may frame the page (see
    // SHOP), http://127.0.0.1:<port> is another origin and may not.
    const shop = await serveApp({
      fetch: () => new Response(parent, { headers: { 'content-type': 'text/html' } }),
    });
    const port = new URL(shop.url).port;
    try {
      await s.page.goto(`http://localhost:${port}/`);
      const frame = s.page.frameLocator('iframe');
      await frame.locator('#checkout[data-view="waiting"]').waitFor({ state: 'attached', timeout: 10_000 });
      moveOrder(s.h, o, 'failed', { reason: 'The paying transaction failed.' });
      await frame.locator('#checkout[data-view="failed"]').waitFor({ state: 'attached', timeout: 10_000 });
      await expect
        .poll(() => s.page.evaluate(() => (window as unknown as { received: unknown[] }).received))
        .toEqual([
          {
            origin: s.served.url,
            data: {
              type: 'kassa:checkout',
              orderId: o.orderId,
              status: 'FAILED',
              txid: null,
              actualAmount: null,
            },
          },
        ]);

      const refused = s.page.waitForEvent('console', (msg) => /frame-ancestors/.test(msg.text()));
      await s.page.goto(`${shop.url}/`);
      await refused;
      expect(await frame.locator('#checkout').count()).toBe(0);
      s.problems.splice(0); // the refused frame logs its CSP error on purpose
    } finally {
      await shop.close();
    }
  });

  it('shows a plain error page for a bad sign, with nothing of the order', async () => {
    const o = await order('ETH', 'USDC', '9');
    const res = await s.page.goto(
      `${s.served.url}/checkout?orderId=${o.orderId}&sign=${signData('guess', o.orderId)}`,
    );
    expect(res?.status()).toBe(401);
    expect(await text('h1')).toBe(en.errorTitle);
    expect(await text('body')).toContain(en.errorInvalid);
    expect(await s.page.content()).not.toContain(o.address);
    expect(await s.page.locator('#checkout').count()).toBe(0);
  });
});
