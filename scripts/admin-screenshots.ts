/**
 * Regenerates the dashboard screenshots in docs/: every page on a desktop (1280 px) and a phone
 * (390 px, at 1x to keep the files small). Run with `npx tsx scripts/admin-screenshots.ts` (needs
 * Debian's chromium, and a CJK font such as fonts-wqy-microhei for the 中文 link). Everything
 * runs locally: anvil with Ethereum and Polygon, a temporary database, the real worker (scanner,
 * payouts, webhook delivery to a local receiver), and a shop's first hour: paid, partly paid,
 * expired and open collections, a late payment, a top-up of the shop's balance, payouts (one
 * settled, one in flight, two waiting for approval, one held because the hot wallet's nonce was
 * spent by hand, one queued on a chain whose signing is paused), a merchant whose webhooks fail.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mountAdminDashboard } from '../src/admin/dashboard.ts';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../src/db/repositories/payouts.ts';
import type { Order } from '../src/domain/order.ts';
import { createAdminUser } from '../src/services/admin-accounts.ts';
import { adjustLedger } from '../src/services/manage-ledger.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';
import { listOperatorPayouts } from '../src/services/manage-payouts.ts';
import { pausePayouts } from '../src/services/payout-pause.ts';
import { moveOrder } from '../test/checkout/orders.ts';
import { followRealTime, launchBrowser, serveApp } from '../test/helpers/browser.ts';
import { freePort } from '../test/helpers/cli.ts';
import { evmWorld, spendHotWalletNonce } from '../test/helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../test/helpers/fault-proxy.ts';
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

async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, timeout = 30_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const proxies = new Map<string, FaultProxy>();
const w = await evmWorld(['ETH', 'POLYGON'], {
  confirmations: 2,
  // the chains are reached through fault proxies, to hold one broadcast (the held payout below)
  rpc: async (chain, url) => {
    const proxy = await startFaultProxy(url);
    proxies.set(chain, proxy);
    return [proxy.url];
  },
  overrides: {
    webhooks: { retryForSeconds: 3, retryBaseMs: 500 },
    payouts: { limits: { approvalAbove: { USDT: '100' } } },
  },
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
  // The shop prefunds its payouts.
  for (const chain of ['ETH', 'POLYGON'])
    await adjustLedger(w.h.rt, {
      merchantId: shop.merchantId,
      chain,
      symbol: 'USDT',
      amount: '+500',
      reason: 'prefunded by bank wire 4711',
    });

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
  const payout = async (orderId: string, amount: string, chain: string, to: string) => {
    const r = await w.h.post('/v1/order/createPayout', shop, {
      amount,
      symbol: 'USDT',
      chain,
      orderId,
      receiveAddress: to,
    });
    if (r.status !== 200) throw new Error(`payout ${orderId}: ${r.status}`);
  };
  // Held: its broadcast waits at the proxy while the hot wallet's key spends the same nonce by hand.
  const polygon = proxies.get('POLYGON') as FaultProxy;
  polygon.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'hold' } });
  await payout('PAY-303', '9.50', 'POLYGON', '0x4444444444444444444444444444444444444444');
  await until(
    () => polygon.held,
    (n) => n === 1,
  );
  const [signed] = attemptsOfOrder(w.h.rt.db, order(shop, 'PAY-303').id);
  await spendHotWalletNonce(w, 'POLYGON', signed?.nonce ?? 0);
  polygon.release();
  await until(
    async () => (await listOperatorPayouts(w.h.rt, { stuck: true })).length,
    (n) => n === 1,
  );
  // Above approvalAbove: waiting for the operator.
  await payout('PAY-304', '250.00', 'ETH', '0x5555555555555555555555555555555555555555');
  await payout('PAY-305', '120.00', 'POLYGON', '0x6666666666666666666666666666666666666666');
  // Signing paused on Ethereum: a new payout there waits in the queue.
  await pausePayouts(w.h.rt, 'ETH');
  await payout('PAY-306', '5.00', 'ETH', '0x1111111111111111111111111111111111111111');
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
    ['ledger', `/admin/money/merchants/${shop.merchantId}`],
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
  for (const proxy of proxies.values()) await proxy.close();
  await w.close();
}
