/**
 * Regenerates the dashboard screenshots in docs/: every page on a desktop (1280 px) and a phone
 * (390 px, at 1x to keep the files small). Run with `npx tsx scripts/admin-screenshots.ts` (needs
 * Debian's chromium, and a CJK font such as fonts-wqy-microhei for the 中文 link). Everything
 * runs locally: anvil with Ethereum and Polygon, a temporary database, the real worker (scanner,
 * payouts, webhook delivery to a local receiver), and a shop's first hour: paid, partly paid,
 * expired and open collections, a late payment, payouts, a merchant whose webhooks fail.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mountAdminDashboard } from '../src/admin/dashboard.ts';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import type { Order } from '../src/domain/order.ts';
import { createAdminUser } from '../src/services/admin-accounts.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';
import { moveOrder } from '../test/checkout/orders.ts';
import { followRealTime, launchBrowser, serveApp } from '../test/helpers/browser.ts';
import { freePort } from '../test/helpers/cli.ts';
import { evmWorld } from '../test/helpers/evm-chain.ts';
import { body } from '../test/helpers/harness.ts';
import { startReceiver } from '../test/helpers/webhook-receiver.ts';
import { chainJobs } from '../workers/jobs/chain-jobs.ts';
import { webhookJobs } from '../workers/jobs/deliver-webhooks.ts';
import { startWorker } from '../workers/main.ts';

const docs = resolve(import.meta.dirname, '..', 'docs');
const screens = {
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
} as const;
const PASSWORD = 'correct horse battery';

async function until<T>(read: () => T, ok: (v: T) => boolean, timeout = 30_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const w = await evmWorld(['ETH', 'POLYGON'], {
  confirmations: 2,
  overrides: { webhooks: { retryForSeconds: 3, retryBaseMs: 500 } },
});
const stopClock = followRealTime(w.h.clock);
const receiver = await startReceiver();
mountAdminDashboard(w.h.app, w.h.rt);
const served = await serveApp(w.h.app);
const worker = await startWorker(w.h.rt, [chainJobs, webhookJobs]);
const browser = await launchBrowser();
try {
  mkdirSync(docs, { recursive: true });
  await createAdminUser(w.h.rt, { email: 'ops@demo-shop.example', role: 'admin', password: PASSWORD });
  const shop = await createMerchant(w.h.rt, { kind: 'V3', name: 'Demo Shop', callbackUrl: receiver.url });
  const tea = await createMerchant(w.h.rt, {
    kind: 'V2',
    name: 'Tea House',
    callbackUrl: `http://127.0.0.1:${await freePort()}/hooks/kassa`,
  });
  w.h.clock.advance(1100);
  const order = (m: typeof shop, orderId: string) =>
    findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId) as Order;
  const collect = async (m: typeof shop, data: Record<string, string>) => {
    const r = await body<{ address: string }>(await w.h.post('/v1/order/createCollection', m, data));
    if (r.code !== 200) throw new Error(r.msg);
    return r.data.address;
  };

  // Paid in full on each chain, one of them by Tea House (whose webhooks fail).
  const a1 = await collect(shop, { amount: '42.50', symbol: 'USDC', chain: 'POLYGON', orderId: 'INV-1042' });
  const a2 = await collect(shop, { amount: '120.00', symbol: 'USDT', chain: 'ETH', orderId: 'INV-1043' });
  const a3 = await collect(tea, { amount: '18.80', symbol: 'USDT', chain: 'POLYGON', uid: 'member-5521' });
  await w.pay('POLYGON', 'USDC', a1, 42_500_000n);
  await w.pay('ETH', 'USDT', a2, 120_000_000n);
  await w.pay('POLYGON', 'USDT', a3, 18_800_000n);
  // Partly paid, still open.
  const a4 = await collect(shop, { amount: '75.00', symbol: 'USDC', chain: 'ETH', orderId: 'INV-1044' });
  await w.pay('ETH', 'USDC', a4, 25_000_000n);
  // Waiting for payment.
  await collect(shop, { amount: '9.99', symbol: 'USDT', chain: 'POLYGON', orderId: 'INV-1045' });
  await collect(shop, { amount: '0.05', symbol: 'ETH', chain: 'ETH', orderId: 'INV-1046' });
  // Expired unpaid, then paid late: an unattributed deposit.
  const a7 = await collect(shop, { amount: '30.00', symbol: 'USDT', chain: 'POLYGON', orderId: 'INV-1039' });
  moveOrder(w.h, { merchant: shop, orderId: 'INV-1039' }, 'expired', { reason: 'Expired without payment.' });
  await w.mine('ETH', 3);
  await w.mine('POLYGON', 3);
  await until(
    () => order(shop, 'INV-1043').status,
    (s) => s === 'SUCCESS',
  );
  await until(
    () => order(shop, 'INV-1042').status,
    (s) => s === 'SUCCESS',
  );
  await w.pay('POLYGON', 'USDT', a7, 30_000_000n);
  await w.mine('POLYGON', 3);

  // Payouts: one settled, one in flight.
  for (const [orderId, amount, chain] of [
    ['PAY-301', '15.00', 'POLYGON'],
    ['PAY-302', '64.20', 'ETH'],
  ] as const) {
    const r = await w.h.post('/v1/order/createPayout', shop, {
      amount,
      symbol: 'USDT',
      chain,
      orderId,
      receiveAddress: '0x1111111111111111111111111111111111111111',
    });
    if (r.status !== 200) throw new Error(`payout ${orderId}: ${r.status}`);
  }
  await until(
    () => order(shop, 'PAY-301').status,
    (s) => s === 'PENDING_CONFIRMATION',
  );
  await until(
    () => order(shop, 'PAY-302').status,
    (s) => s === 'PENDING_CONFIRMATION',
  );
  await w.mine('POLYGON', 3);
  await until(
    () => order(shop, 'PAY-301').status,
    (s) => s === 'SUCCESS',
  );
  // Tea House's events give up after 3 s of failing.
  await new Promise((r) => setTimeout(r, 4000));
  const paid = order(shop, 'INV-1042');

  const pages: [string, string][] = [
    ['login', '/admin/login'],
    ['overview', '/admin'],
    ['orders', '/admin/orders'],
    ['order', `/admin/orders/${paid.id}`],
    ['payouts', '/admin/payouts'],
    ['money', '/admin/money'],
    ['merchants', '/admin/merchants'],
    ['webhooks', '/admin/webhooks'],
    ['deposits', '/admin/deposits'],
    ['account', '/admin/account'],
  ];
  for (const [name, options] of Object.entries(screens)) {
    const context = await browser.newContext({ ...options, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${served.url}/admin/login`);
    await page.screenshot({ path: join(docs, `dashboard-login-${name}.png`), fullPage: true });
    await page.fill('#email', 'ops@demo-shop.example');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(`${served.url}/admin`), page.click('button[type=submit]')]);
    for (const [file, path] of pages.slice(1)) {
      await page.goto(served.url + path);
      await page.screenshot({ path: join(docs, `dashboard-${file}-${name}.png`), fullPage: true });
    }
    await context.close();
  }
  console.log(`wrote docs/dashboard-{${pages.map(([n]) => n).join(',')}}-{desktop,phone}.png`);
} finally {
  await browser.close();
  await worker.stop();
  await served.close();
  await receiver.close();
  stopClock();
  await w.close();
}
