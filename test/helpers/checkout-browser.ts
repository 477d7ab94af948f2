import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type CheckoutOrder, createCheckoutOrder } from '../checkout/orders.ts';
import { followRealTime, launchBrowser, type Served, serveApp, watchProblems } from './browser.ts';
import { type Harness, makeHarness } from './harness.ts';

/** Who may frame the checkout page in the browser tests: any port of http://localhost (not 127.0.0.1). */
export const SHOP = 'http://localhost:*';

/**
 * The set-up of the checkout page's browser tests: the app served on 127.0.0.1 with a clock that
 * follows real time, one V3 merchant, one Chromium with one reused page for the test file (clipboard
 * allowed), and no console error or failed request left after any test.
 */
export function useCheckoutBrowser() {
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
    await h?.close();
  });

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  return {
    get h() {
      return h;
    },
    get m() {
      return m;
    },
    get served() {
      return served;
    },
    get browser() {
      return browser;
    },
    get context() {
      return context;
    },
    get page() {
      return page;
    },
    /** The shared page's console errors and failed requests since the last test (must stay empty). */
    get problems() {
      return problems;
    },
    /** A new collection of the merchant (orderIds B-1, B-2, …). */
    async order(chain: string, symbol: string, amount: string): Promise<CheckoutOrder> {
      orderNo++;
      return createCheckoutOrder(h, m, { chain, symbol, amount, orderId: `B-${orderNo}` });
    },
    /** Opens the order's checkout page (on the shared page unless told), which must answer 200. */
    async open(o: CheckoutOrder, on: Page = page) {
      const res = await on.goto(served.url + o.path);
      expect(res?.status()).toBe(200);
    },
    /** The text as rendered (what the customer reads), not the DOM's raw textContent. */
    text: (selector: string, on: Page = page) =>
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what these tests are about
      on.locator(selector).innerText(),
  };
}
