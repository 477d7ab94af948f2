import { describe, expect, it } from 'vitest';
import { en } from '../../src/checkout/i18n/en.ts';
import { readQr, waitForView, watchProblems } from '../helpers/browser.ts';
import { useCheckoutBrowser } from '../helpers/checkout-browser.ts';
import { moveOrder, readOrder, transferTo } from './orders.ts';

/**
 * The checkout page in real Chromium, against the app served on 127.0.0.1: what it shows for each
 * chain family, the copy button, the countdown, and the order followed from waiting to paid or
 * expired. Orders are created through the signed API and moved through their states with
 * applyOrderTransitions while the page is open, as the worker would. One browser and one reused
 * page for the file.
 */
const s = useCheckoutBrowser();
const { order, open, text } = s;
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
    expect(await s.page.locator('[data-panel="waiting"]').isVisible()).toBe(true);
    expect(await readQr(s.page, '#qr .qr')).toBe(c.uri(o.address));
  });

  it('copies the deposit address to the clipboard, and selects it where the Clipboard API is missing', async () => {
    const o = await order('TRON', 'USDT', '5');
    await open(o);
    await s.page.evaluate(() => navigator.clipboard.writeText('something else'));
    await s.page.getByRole('button', { name: en.copyAddress }).click();
    await expect.poll(() => s.page.evaluate(() => navigator.clipboard.readText())).toBe(o.address);
    expect(await text('button[data-copy="address"]')).toBe(en.copied);
    await expect.poll(() => text('#announce')).toBe(en.copied);

    const bare = await s.context.newPage();
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
    s.h.clock.advance(10 * 60_000); // 20 minutes left on the server
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
    s.page.on('response', onResponse);
    await open(o);
    await waitForView(s.page, 'waiting');

    const stored = readOrder(s.h, o);
    moveOrder(s.h, o, 'partial_seen', {
      receivedBase: 5_000000n,
      transaction: transferTo(stored, 5_000000n, { confirmedNum: 0 }),
    });
    await waitForView(s.page, 'seen');
    expect(await text('[data-panel="seen"]')).toContain('Received so far: 5.00 of 12 USDC.');
    expect(await text('[data-panel="seen"]')).toContain('Send the remaining 7.00 USDC');
    expect(await s.page.locator('#address').isVisible()).toBe(true);
    expect(await s.page.locator('#qr').isVisible()).toBe(false);
    await expect.poll(() => text('#announce')).toBe(en.seenTitle);

    moveOrder(s.h, o, 'covered_seen', {
      receivedBase: 12_000000n,
      transaction: transferTo(stored, 7_000000n, { txid: '0x77', confirmedNum: 2 }),
    });
    await waitForView(s.page, 'confirming');
    expect(await text('[data-panel="confirming"]')).toContain('Received 12.00 USDC.');
    expect(await text('[data-panel="confirming"]')).toContain('Confirmations: 2');
    expect(await s.page.locator('#pay').isVisible()).toBe(false);

    const txid = `0x${'5e'.repeat(32)}`;
    moveOrder(s.h, o, 'settled', {
      actualAmountBase: 12_000000n,
      transaction: transferTo(stored, 7_000000n, { txid, confirmedNum: 64, status: 'SUCCESS' }),
    });
    await waitForView(s.page, 'paid');
    expect(await text('[data-panel="paid"] h2')).toBe(en.paidTitle);
    expect(await text('[data-panel="paid"] p:first-of-type')).toBe('Received 12.00 USDC. Thank you!');
    const link = s.page.locator('[data-panel="paid"] a[data-f="txid"]');
    expect(await text('[data-panel="paid"] a[data-f="txid"]')).toBe(txid);
    expect(await link.getAttribute('href')).toBe(`https://etherscan.io/tx/${txid}`);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await s.page.locator('#timer').isVisible()).toBe(false);
    await expect.poll(() => text('#announce')).toBe(en.paidTitle);

    const atFinal = polls.length;
    await s.page.waitForTimeout(1800);
    s.page.off('response', onResponse);
    expect(polls.length).toBe(atFinal); // stopped at the final state
    expect(polls.every((p) => p.status === 200)).toBe(true);
    for (let i = 1; i < polls.length; i++)
      expect((polls[i] as { at: number }).at - (polls[i - 1] as { at: number }).at).toBeGreaterThanOrEqual(
        900,
      );
  });

  it('turns to expired when the time runs out, hides the address, and stops when the server agrees', async () => {
    const o = await order('SUI', 'USDC', '2');
    s.h.clock.advance(30 * 60_000 - 4_000); // 4 seconds left
    await open(o);
    expect(await s.page.getAttribute('#checkout', 'data-view')).toBe('waiting');
    expect(seconds(await text('#countdown'))).toBeLessThanOrEqual(4);
    await waitForView(s.page, 'expired', 8_000);
    expect(await s.page.locator('[data-panel="expired"]').isVisible()).toBe(true);
    expect(await text('[data-panel="expired"]')).toContain(en.expiredBody);
    expect(await s.page.locator('#address').isVisible()).toBe(false);
    expect(await s.page.locator('#qr').isVisible()).toBe(false);

    moveOrder(s.h, o, 'expired', { reason: 'No payment was received before the order expired.' });
    await s.page.waitForSelector('#checkout[data-status="EXPIRED"]', { state: 'attached' });
    await expect.poll(() => text('#announce')).toBe(en.expiredTitle);
  });
});
