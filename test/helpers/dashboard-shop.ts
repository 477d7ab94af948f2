import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { mountAdminDashboard } from '../../src/admin/dashboard.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { listWebhookEvents } from '../../src/db/repositories/webhook-log.ts';
import type { Order } from '../../src/domain/order.ts';
import { createAdminUser } from '../../src/services/admin-accounts.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { webhookJobs } from '../../workers/jobs/deliver-webhooks.ts';
import { startWorker, type Worker } from '../../workers/main.ts';
import { ADMIN_USER as ADMIN, VIEWER_USER as VIEWER } from './admin.ts';
import { followRealTime, launchBrowser, type Served, serveApp, watchProblems } from './browser.ts';
import { type EvmWorld, evmWorld } from './evm-chain.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { body } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/**
 * The set-up of the dashboard's Chromium tests, one per test file: a real shop on anvil (POLYGON,
 * reached through a fault proxy) with the real worker (scanner, payouts, webhook delivery to a real
 * receiver), the dashboard served on 127.0.0.1 with ADMIN_USER and VIEWER_USER, a collection paid
 * (INV-1042) and a payout sent and mined (PAY-7), and one Chromium.
 */
export function useDashboardShop() {
  let w: EvmWorld;
  let proxy: FaultProxy;
  let served: Served;
  let worker: Worker;
  let receiver: Receiver;
  let stopClock: () => void;
  let browser: Browser;
  let m: MerchantCreated;
  let paid: Order;
  let txid: string;
  let payout: Order;

  async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeout = 20_000) {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await read();
      if (ok(value)) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The id of the paid order's ORDER_SUCCESS event. */
  const successEventId = () =>
    listWebhookEvents(w.h.db, { order: paid.id, limit: 10 }).find((e) => e.notifyType === 'ORDER_SUCCESS')
      ?.id;

  const orderNow = (orderId: string) => findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId) as Order;

  beforeAll(async () => {
    w = await evmWorld(['POLYGON'], {
      confirmations: 2,
      rpc: async (_chain, url) => {
        proxy = await startFaultProxy(url);
        return [proxy.url];
      },
      overrides: {
        payouts: { limits: { approvalAbove: { USDC: '10' } } },
        // every sign-in here comes from 127.0.0.1; the per-address limit has its own in-process test
        admin: { signInPerAddress: { limit: 50, windowSeconds: 900 } },
      },
    });
    stopClock = followRealTime(w.h.clock);
    receiver = await startReceiver();
    mountAdminDashboard(w.h.app, w.h.rt);
    served = await serveApp(w.h.app);
    worker = await startWorker(w.h.rt, [chainJobs, webhookJobs]);
    await createAdminUser(w.h.rt, { ...ADMIN, role: 'admin' });
    await createAdminUser(w.h.rt, { ...VIEWER, role: 'viewer' });
    m = await w.h.merchant('V3', receiver.url);
    w.h.clock.advance(1100);

    const created = await body<{ address: string }>(
      await w.h.post('/v1/order/createCollection', m, {
        amount: '42.5',
        symbol: 'USDC',
        chain: 'POLYGON',
        orderId: 'INV-1042',
      }),
    );
    txid = await w.pay('POLYGON', 'USDC', created.data.address, 42_500_000n);
    await w.mine('POLYGON', 3);
    paid = await until(
      () => orderNow('INV-1042'),
      (o) => o.status === 'SUCCESS',
      'the collection to succeed',
    );

    const p = await w.h.post('/v1/order/createPayout', m, {
      amount: '3.25',
      symbol: 'USDC',
      chain: 'POLYGON',
      orderId: 'PAY-7',
      receiveAddress: '0x1111111111111111111111111111111111111111',
    });
    expect(p.status).toBe(200);
    payout = await until(
      () => orderNow('PAY-7'),
      (o) => o.status === 'PENDING_CONFIRMATION',
      'the payout to be sent and mined',
    );
    await receiver.waitFor(3);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await served?.close();
    await receiver?.close();
    stopClock?.();
    await proxy?.close();
    await w?.close();
  });

  async function signedIn(user: typeof ADMIN, options: Parameters<Browser['newContext']>[0] = {}) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      ...options,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${served.url}/admin`);
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForURL(`${served.url}/admin`), page.click('button[type=submit]')]);
    return { context, page, problems };
  }

  const text = (page: Page, selector: string) =>
    // biome-ignore lint/performance/useDomNodeTextContent: what a person reads is what counts
    page.locator(selector).first().innerText();

  return {
    get w() {
      return w;
    },
    get proxy() {
      return proxy;
    },
    get served() {
      return served;
    },
    get receiver() {
      return receiver;
    },
    get browser() {
      return browser;
    },
    get m() {
      return m;
    },
    get paid() {
      return paid;
    },
    get txid() {
      return txid;
    },
    get payout() {
      return payout;
    },
    until,
    successEventId,
    orderNow,
    signedIn,
    text,
  };
}
