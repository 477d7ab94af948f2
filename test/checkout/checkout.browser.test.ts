import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/checkout/i18n/en.ts';
import { zh } from '../../src/checkout/i18n/zh.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import {
  followRealTime,
  launchBrowser,
  readQr,
  type Served,
  serveApp,
  waitForView,
  watchProblems,
} from '../helpers/browser.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import { signData } from '../helpers/signing.ts';
import { type CheckoutOrder, createCheckoutOrder, moveOrder, readOrder, transferTo } from './orders.ts';

/**
 * The checkout page in real Chromium, against the app served on 127.0.0.1. Orders are created
 * through the signed API and moved through their states with applyOrderTransitions while the page
 * is open, as the worker would. One browser and one reused page for the file.
 */
/** Who may frame the page in this file: any port of http://localhost (not 127.0.0.1). */
const SHOP = 'http://localhost:*';

let h: Harness;
let m: MerchantCreated;
let served: Served;
let stopClock: () => void;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
let orderNo = 0;

beforeAll(async () => {
  h = await makeHarness({ checkout: { frameAncestors: [SHOP] } });
  stopClock = followRealTime(h.clock);
  m = await h.merchant('V3');
  served = await serveApp(h.app);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.url });
  page = await context.newPage();
  problems = watchProblems(page);
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  stopClock?.();
  h?.close();
});

afterEach(() => {
  expect(problems.splice(0)).toEqual([]);
});

async function order(chain: string, symbol: string, amount: string): Promise<CheckoutOrder> {
  orderNo++;
  return createCheckoutOrder(h, m, { chain, symbol, amount, orderId: `B-${orderNo}` });
}

async function open(o: CheckoutOrder, on: Page = page) {
  const res = await on.goto(served.url + o.path);
  expect(res?.status()).toBe(200);
}

/** The text as rendered (what the customer reads), not the DOM's raw textContent. */
const text = (selector: string, on: Page = page) =>
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what these tests are about
  on.locator(selector).innerText();
const seconds = (clock: string) => clock.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);

describe('checkout page in Chromium', () => {
  it.each([
    {
      family: 'EVM token',
      chain: 'ETH',
      symbol: 'USDC',
      amount: '12.5',
      network: 'Ethereum',
      uri: (a: string) =>
        `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${a}&uint256=12500000`,
    },
    {
      family: 'EVM native coin',
      chain: 'BSC',
      symbol: 'BNB',
      amount: '0.25',
      network: 'BNB Smart Chain',
      uri: (a: string) => `ethereum:${a}@56?value=250000000000000000`,
    },
    { family: 'TRON', chain: 'TRON', symbol: 'USDT', amount: '30', network: 'TRON', uri: (a: string) => a },
    { family: 'SUI', chain: 'SUI', symbol: 'USDC', amount: '7', network: 'Sui', uri: (a: string) => a },
  ])('shows a $family order with a QR code that scans back to its payload', async (c) => {
    const o = await order(c.chain, c.symbol, c.amount);
    await open(o);
    expect(await text('h1')).toBe(`${c.amount} ${c.symbol}`);
    expect(await text('#network')).toBe(c.network);
    expect(await text('#warning')).toBe(
      `Send only ${c.symbol} on ${c.network} to this address. Funds sent as another token or on another network are lost.`,
    );
    expect(await text('#address')).toBe(o.address);
    expect(await page.locator('[data-panel="waiting"]').isVisible()).toBe(true);
    expect(await readQr(page, '#qr .qr')).toBe(c.uri(o.address));
  });

  it('copies the deposit address to the clipboard, and selects it where the Clipboard API is missing', async () => {
    const o = await order('TRON', 'USDT', '5');
    await open(o);
    await page.evaluate(() => navigator.clipboard.writeText('something else'));
    await page.getByRole('button', { name: en.copyAddress }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(o.address);
    expect(await text('button[data-copy="address"]')).toBe(en.copied);
    await expect.poll(() => text('#announce')).toBe(en.copied);

    const bare = await context.newPage();
    const bareProblems = watchProblems(bare);
    await bare.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await open(o, bare);
    await bare.getByRole('button', { name: en.copyAddress }).click();
    expect(await bare.evaluate(() => window.getSelection()?.toString().trim())).toBe(o.address);
    expect([en.copied, en.copyFailed]).toContain(await text('button[data-copy="address"]', bare));
    await bare.close();
    expect(bareProblems).toEqual([]);
  });

  it('counts down to expiredTime with the server clock, whatever the browser clock says', async () => {
    const o = await order('ETH', 'USDT', '1');
    h.clock.advance(10 * 60_000); // 20 minutes left on the server
    await open(o);
    const first = seconds(await text('#countdown'));
    expect(first).toBeGreaterThan(20 * 60 - 5);
    expect(first).toBeLessThanOrEqual(20 * 60);
    // the next tick, whenever it comes, takes a second or two off: never the browser clock's offset
    await expect.poll(async () => seconds(await text('#countdown')), { timeout: 5_000 }).toBeLessThan(first);
    const second = seconds(await text('#countdown'));
    expect(first - second).toBeGreaterThanOrEqual(1);
    expect(first - second).toBeLessThanOrEqual(2);
    expect(await text('#timer')).toContain(en.timeLeft);
  });

  it('follows the order from waiting to paid while it is open, polling at most once a second', async () => {
    const o = await order('ETH', 'USDC', '12');
    const polls: { at: number; status: number }[] = [];
    const onResponse = (r: { url(): string; status(): number }) => {
      if (r.url().includes('/checkout/state?')) polls.push({ at: Date.now(), status: r.status() });
    };
    page.on('response', onResponse);
    await open(o);
    await waitForView(page, 'waiting');

    const stored = readOrder(h, o);
    moveOrder(h, o, 'partial_seen', {
      receivedBase: 5_000000n,
      transaction: transferTo(stored, 5_000000n, { confirmedNum: 0 }),
    });
    await waitForView(page, 'seen');
    expect(await text('[data-panel="seen"]')).toContain('Received so far: 5.00 of 12 USDC.');
    expect(await text('[data-panel="seen"]')).toContain('Send the remaining 7.00 USDC');
    expect(await page.locator('#address').isVisible()).toBe(true);
    expect(await page.locator('#qr').isVisible()).toBe(false);
    await expect.poll(() => text('#announce')).toBe(en.seenTitle);

    moveOrder(h, o, 'covered_seen', {
      receivedBase: 12_000000n,
      transaction: transferTo(stored, 7_000000n, { txid: '0x77', confirmedNum: 2 }),
    });
    await waitForView(page, 'confirming');
    expect(await text('[data-panel="confirming"]')).toContain('Received 12.00 USDC.');
    expect(await text('[data-panel="confirming"]')).toContain('Confirmations: 2');
    expect(await page.locator('#pay').isVisible()).toBe(false);

    const txid = `0x${'5e'.repeat(32)}`;
    moveOrder(h, o, 'settled', {
      actualAmountBase: 12_000000n,
      transaction: transferTo(stored, 7_000000n, { txid, confirmedNum: 64, status: 'SUCCESS' }),
    });
    await waitForView(page, 'paid');
    expect(await text('[data-panel="paid"] h2')).toBe(en.paidTitle);
    expect(await text('[data-panel="paid"] p:first-of-type')).toBe('Received 12.00 USDC. Thank you!');
    const link = page.locator('[data-panel="paid"] a[data-f="txid"]');
    expect(await text('[data-panel="paid"] a[data-f="txid"]')).toBe(txid);
    expect(await link.getAttribute('href')).toBe(`https://etherscan.io/tx/${txid}`);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.locator('#timer').isVisible()).toBe(false);
    await expect.poll(() => text('#announce')).toBe(en.paidTitle);

    const atFinal = polls.length;
    await page.waitForTimeout(1800);
    page.off('response', onResponse);
    expect(polls.length).toBe(atFinal); // stopped at the final state
    expect(polls.every((p) => p.status === 200)).toBe(true);
    for (let i = 1; i < polls.length; i++)
      expect((polls[i] as { at: number }).at - (polls[i - 1] as { at: number }).at).toBeGreaterThanOrEqual(
        900,
      );
  });

  it('turns to expired when the time runs out, hides the address, and stops when the server agrees', async () => {
    const o = await order('SUI', 'USDC', '2');
    h.clock.advance(30 * 60_000 - 4_000); // 4 seconds left
    await open(o);
    expect(await page.getAttribute('#checkout', 'data-view')).toBe('waiting');
    expect(seconds(await text('#countdown'))).toBeLessThanOrEqual(4);
    await waitForView(page, 'expired', 8_000);
    expect(await page.locator('[data-panel="expired"]').isVisible()).toBe(true);
    expect(await text('[data-panel="expired"]')).toContain(en.expiredBody);
    expect(await page.locator('#address').isVisible()).toBe(false);
    expect(await page.locator('#qr').isVisible()).toBe(false);

    moveOrder(h, o, 'expired', { reason: 'No payment was received before the order expired.' });
    await page.waitForSelector('#checkout[data-status="EXPIRED"]', { state: 'attached' });
    await expect.poll(() => text('#announce')).toBe(en.expiredTitle);
  });

  it('keeps a 320 px phone screen free of horizontal scrolling for every chain family', async () => {
    const phone = await context.newPage();
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
    const zhContext = await browser.newContext({ locale: 'zh-CN' });
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
    const parent = `<!doctype html><iframe src="${served.url}${o.path}" width="400" height="800"></iframe>
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
      await page.goto(`http://localhost:${port}/`);
      const frame = page.frameLocator('iframe');
      await frame.locator('#checkout[data-view="waiting"]').waitFor({ state: 'attached', timeout: 10_000 });
      moveOrder(h, o, 'failed', { reason: 'The paying transaction failed.' });
      await frame.locator('#checkout[data-view="failed"]').waitFor({ state: 'attached', timeout: 10_000 });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { received: unknown[] }).received))
        .toEqual([
          {
            origin: served.url,
            data: {
              type: 'kassa:checkout',
              orderId: o.orderId,
              status: 'FAILED',
              txid: null,
              actualAmount: null,
            },
          },
        ]);

      const refused = page.waitForEvent('console', (msg) => /frame-ancestors/.test(msg.text()));
      await page.goto(`${shop.url}/`);
      await refused;
      expect(await frame.locator('#checkout').count()).toBe(0);
      problems.splice(0); // the refused frame logs its CSP error on purpose
    } finally {
      await shop.close();
    }
  });

  it('shows a plain error page for a bad sign, with nothing of the order', async () => {
    const o = await order('ETH', 'USDC', '9');
    const res = await page.goto(
      `${served.url}/checkout?orderId=${o.orderId}&sign=${signData('guess', o.orderId)}`,
    );
    expect(res?.status()).toBe(401);
    expect(await text('h1')).toBe(en.errorTitle);
    expect(await text('body')).toContain(en.errorInvalid);
    expect(await page.content()).not.toContain(o.address);
    expect(await page.locator('#checkout').count()).toBe(0);
  });
});
