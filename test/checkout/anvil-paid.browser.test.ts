import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker, type Worker } from '../../workers/main.ts';
import {
  followRealTime,
  launchBrowser,
  readQr,
  type Served,
  serveApp,
  waitForView,
  watchProblems,
} from '../helpers/browser.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/**
 * The whole path a customer sees: the checkout page open in Chromium while the payment is made on
 * a real EVM node (anvil) and the real worker scans it; no state is moved by hand.
 */
let w: EvmWorld;
let served: Served;
let worker: Worker;
let stopClock: () => void;

beforeAll(async () => {
  w = await evmWorld(['POLYGON'], { confirmations: 2 });
  stopClock = followRealTime(w.h.clock);
  served = await serveApp(w.h.app);
  worker = await startWorker(w.h.rt, [chainJobs]);
});
afterAll(async () => {
  await worker?.stop();
  await served?.close();
  stopClock?.();
  await w?.close();
});

describe('checkout page while the order is paid on anvil', () => {
  it('goes from waiting to paid, with the transaction linked, without a reload', async () => {
    const m = await w.h.merchant('V3');
    w.h.clock.advance(1_100);
    const created = await body<{ address: string; paymentUrl: string }>(
      await w.h.post('/v1/order/createCollection', m, {
        amount: '42.5',
        symbol: 'USDC',
        chain: 'POLYGON',
        orderId: 'shop-77',
      }),
    );
    const url = created.data.paymentUrl.replace('http://localhost:180', served.url);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const problems = watchProblems(page);
      await page.goto(url);
      await waitForView(page, 'waiting');
      const usdc = w.devnet.get('POLYGON').tokens.USDC.address;
      expect(await readQr(page, '#qr')).toBe(
        `ethereum:${usdc}@137/transfer?address=${created.data.address}&uint256=42500000`,
      );
      const txid = await w.pay('POLYGON', 'USDC', created.data.address, 42_500_000n);
      await waitForView(page, 'confirming', 15_000);
      await w.mine('POLYGON', 2);
      await waitForView(page, 'paid', 15_000);
      expect(await page.locator(`a[href*="${txid}"]`).count()).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
