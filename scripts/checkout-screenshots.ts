/**
 * Regenerates the checkout screenshots in docs/: the waiting and paid states of one order, on a
 * desktop (1280 px) and a phone (390 px). Run with `npx tsx scripts/checkout-screenshots.ts`
 * (needs Debian's chromium: `apt-get install -y chromium`). Everything runs locally: a temporary
 * database, the app on a 127.0.0.1 port, a demo merchant, and the order settled in the database.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createMerchant } from '../src/services/manage-merchants.ts';
import { createCheckoutOrder, payInFull } from '../test/checkout/orders.ts';
import { followRealTime, launchBrowser, serveApp, waitForView } from '../test/helpers/browser.ts';
import { makeHarness } from '../test/helpers/harness.ts';

const docs = resolve(import.meta.dirname, '..', 'docs');
const screens = {
  desktop: { viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
} as const;

const h = await makeHarness();
const stopClock = followRealTime(h.clock);
const served = await serveApp(h.app);
const browser = await launchBrowser();
try {
  mkdirSync(docs, { recursive: true });
  const merchant = await createMerchant(h.rt, { kind: 'V3', name: 'Demo Shop' });
  h.clock.advance(1000); // the merchant directory picks up new merchants within a second
  const order = await createCheckoutOrder(h, merchant, {
    chain: 'ETH',
    symbol: 'USDC',
    amount: '25.00',
    orderId: 'INV-1042',
  });
  h.clock.advance(4 * 60_000 + 21_000); // a customer a few minutes in, so the countdown shows it
  const pages = [];
  for (const [name, options] of Object.entries(screens)) {
    const page = await browser.newPage({ ...options, locale: 'en-US' });
    await page.goto(served.url + order.path);
    await waitForView(page, 'waiting');
    await page.screenshot({ path: join(docs, `checkout-waiting-${name}.png`), fullPage: true });
    pages.push({ name, page });
  }
  payInFull(h, order, '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925');
  for (const { name, page } of pages) {
    await waitForView(page, 'paid');
    await page.screenshot({ path: join(docs, `checkout-paid-${name}.png`), fullPage: true });
  }
  console.log(`wrote docs/checkout-{waiting,paid}-{desktop,phone}.png`);
} finally {
  await browser.close();
  await served.close();
  stopClock();
  await h.close();
}
