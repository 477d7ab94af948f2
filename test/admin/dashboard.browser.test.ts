import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USER as ADMIN, VIEWER_USER as VIEWER } from '../helpers/admin.ts';
import { useDashboardShop } from '../helpers/dashboard-shop.ts';

/**
 * The dashboard in real Chromium against a real shop: a collection paid on anvil and a payout sent
 * from the hot wallet, both moved only by the real worker (scanner, payouts, webhook delivery to a
 * real receiver). Sign-in, refusals, every page on a desktop and a phone, search by txid, resend.
 * (Payouts waiting for the operator: dashboard-payouts.browser.test.ts.)
 */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

const s = useDashboardShop();
const { until, successEventId, orderNow, signedIn, text } = s;

describe('signing in', () => {
  it('refuses a wrong password with the reason, then signs in with the right one', async () => {
    const context = await s.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${s.served.url}/admin/orders`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.fill('#email', ADMIN.email);
    await page.fill('#password', 'not my password at all');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button[type=submit]'),
    ]);
    expect(refused.status()).toBe(401);
    expect(await text(page, '#sign-in-error')).toBe('That email and password do not match an account.');
    await page.fill('#password', ADMIN.password);
    await Promise.all([page.waitForURL(`${s.served.url}/admin/orders`), page.click('button[type=submit]')]);
    expect(await text(page, 'h1')).toBe('Orders');
    await context.close();
  });

  it('refuses a form whose CSRF token was taken out, and changes nothing', async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${s.served.url}/admin/merchants`);
    const form = page.locator(`form[action="/admin/merchants/${s.m.merchantId}/callback"]`);
    await form.locator('input[name=url]').fill('https://evil.example/hook');
    await form.evaluate((f) => f.querySelector('input[name=csrf]')?.remove());
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      form.locator('button').click(),
    ]);
    expect(refused.status()).toBe(403);
    expect(await text(page, '[role=alert]')).toContain(
      'This form is out of date or did not come from this dashboard.',
    );
    await page.goto(`${s.served.url}/admin/merchants`);
    expect(await form.locator('input[name=url]').inputValue()).toBe(s.receiver.url);
    await context.close();
  });
});

describe('an admin', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ context, page, problems } = await signedIn(ADMIN));
  });
  afterAll(() => context?.close());

  it('walks every page from the navigation, with no script error or CSP violation', async () => {
    const titles: Record<string, string> = {
      Overview: 'Overview',
      Orders: 'Orders',
      Payouts: 'Payouts',
      Money: 'Money',
      Merchants: 'Merchants',
      Webhooks: 'Webhooks',
      Deposits: 'Unattributed deposits',
    };
    for (const [link, title] of Object.entries(titles)) {
      await Promise.all([page.waitForLoadState('load'), page.click(`nav.sections >> text=${link}`)]);
      expect(await text(page, 'h1'), link).toBe(title);
      expect(await page.locator('nav.sections a[aria-current=page]').textContent()).toBe(link);
    }
    expect(problems).toEqual([]);
  });

  it('sees the payout in the queue with the transaction the worker signed, and nothing waiting for a decision', async () => {
    await page.goto(`${s.served.url}/admin/payouts`);
    const row = page.locator(`#payouts tr[data-order="${s.payout.id}"]`);
    const sent = orderNow('PAY-7');
    // Sent and mined in one block; no block is mined after it, so it waits for its 2 confirmations.
    expect(sent.status).toBe('PENDING_CONFIRMATION');
    expect(await row.locator('.badge').first().textContent()).toBe('Confirming');
    expect(await row.locator(`[title="${sent.transaction?.txid}"]`).count()).toBe(1);
    expect(await text(page, '#approval')).toContain('No payout waits for approval.');
    expect(await text(page, '#held')).toContain('No payout is held.');
    expect(await page.locator('.notyet').count()).toBe(0);
    await page.goto(`${s.served.url}/admin/orders/${s.payout.id}`);
    expect(await page.locator('#attempts tbody tr').count()).toBe(1);
    expect(await page.locator(`#attempts [title="${sent.transaction?.txid}"]`).count()).toBe(1);
  });

  it('finds the paid order by its txid from the search box and opens it', async () => {
    await page.goto(`${s.served.url}/admin/orders`);
    await page.fill('#f-q', s.txid.toUpperCase().replace('0X', '0x'));
    await Promise.all([page.waitForURL(/\/admin\/orders\?q=/), page.press('#f-q', 'Enter')]);
    const rows = page.locator('#orders tbody tr');
    expect(await rows.count()).toBe(1);
    await Promise.all([
      page.waitForURL(`${s.served.url}/admin/orders/${s.paid.id}`),
      rows.locator('a').first().click(),
    ]);
    expect(await text(page, 'h1')).toContain('Order INV-1042');
    expect(await text(page, 'h1 .badge')).toBe('Success');
    expect(await page.locator(`#transfers [title="${s.txid}"]`).count()).toBe(1);
    // The scanner may see the payment covered and final in one pass: Success is the last status.
    const statuses = await page.locator('ol.timeline li[data-kind=status]').allInnerTexts();
    expect(statuses.at(-1)).toContain('Status: Success');
    expect(await page.locator('ol.timeline li[data-kind=transfer]').count()).toBe(1);
    expect(await page.locator('#checkout-link').getAttribute('href')).toMatch(
      /\/checkout\?orderId=INV-1042&sign=[0-9a-f]{64}$/,
    );
  });

  it('resends a webhook and sees the new attempt with its status code', async () => {
    await page.goto(`${s.served.url}/admin/orders/${s.paid.id}`);
    const success = page.locator(`.event[data-event="${successEventId()}"]`);
    const attempts = success.locator('tr.attempt');
    const before = await attempts.count();
    expect(before).toBeGreaterThanOrEqual(1);
    const received = s.receiver.received.length;
    await Promise.all([page.waitForURL(/done=resent/), success.locator('form button').click()]);
    expect(await text(page, '[role=status]')).toContain('The webhook is queued again');
    await s.receiver.waitFor(received + 1);
    await until(
      async () => {
        await page.reload();
        return attempts.count();
      },
      (n) => n === before + 1,
      'the new attempt on the page',
    );
    expect(await attempts.last().locator('td').nth(1).textContent()).toBe('200');
    expect(await success.locator('.badge').first().textContent()).toBe('delivered');
  });

  it('reads the dashboard in Chinese once asked, on every following page', async () => {
    await page.goto(`${s.served.url}/admin?lang=zh`);
    expect(await text(page, 'h1')).toBe('概览');
    await page.click('nav.sections >> text=订单');
    expect(await text(page, 'h1')).toBe('订单');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.goto(`${s.served.url}/admin?lang=en`);
  });

  it('sees the overview refresh itself when a new order comes in', async () => {
    await page.goto(`${s.served.url}/admin`);
    const tile = page.locator('.tile').first().locator('strong');
    const before = Number(await tile.textContent());
    await s.w.h.post('/v1/order/createCollection', s.m, {
      amount: '1',
      symbol: 'USDT',
      chain: 'POLYGON',
      orderId: 'INV-LIVE',
    });
    await page.waitForFunction(
      (n) => Number(document.querySelector('.tile strong')?.textContent) === n,
      before + 1,
      {
        timeout: 25_000,
      },
    );
    expect(problems).toEqual([]);
  });
});

describe('a viewer', () => {
  it('sees no action and is refused one sent anyway (403), changing nothing', async () => {
    const { context, page } = await signedIn(VIEWER);
    await page.goto(`${s.served.url}/admin/webhooks`);
    expect(await page.locator('#events tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('button', { hasText: 'Resend' }).count()).toBe(0);
    const eventId = (await page.locator('#events tbody tr').first().getAttribute('data-event')) as string;
    const attemptsBefore = await page.locator(`tr[data-event="${eventId}"] td`).nth(4).textContent();
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.evaluate((id) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = `/admin/webhooks/${id}/resend`;
        const csrf = document.querySelector('input[name=csrf]') as HTMLInputElement;
        form.append(csrf.cloneNode());
        document.body.append(form);
        form.submit();
      }, eventId),
    ]);
    expect(refused.status()).toBe(403);
    await page.waitForLoadState('load');
    expect(await text(page, '[role=alert]')).toContain('Your role is viewer');
    await page.goto(`${s.served.url}/admin/webhooks`);
    expect(await page.locator(`tr[data-event="${eventId}"] td`).nth(4).textContent()).toBe(attemptsBefore);
    await context.close();
  });
});

describe('on a phone, and without JavaScript', () => {
  it('reads every page on a 390 px screen without sideways scrolling', async () => {
    const { context, page, problems } = await signedIn(ADMIN, PHONE);
    for (const path of [
      '',
      '/orders',
      `/orders/${s.paid.id}`,
      `/orders/${s.payout.id}`,
      '/payouts',
      '/money',
      `/money/merchants/${s.m.merchantId}`,
      '/merchants',
      '/webhooks',
      '/deposits',
      '/account',
    ]) {
      await page.goto(`${s.served.url}/admin${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in, searches and resends with JavaScript off', async () => {
    const { context, page } = await signedIn(ADMIN, { javaScriptEnabled: false });
    await page.goto(`${s.served.url}/admin/orders?q=INV-1042`);
    expect(await page.locator('#orders tbody tr').count()).toBe(1);
    await page.goto(`${s.served.url}/admin/orders/${s.paid.id}`);
    const received = s.receiver.received.length;
    await Promise.all([
      page.waitForURL(/done=resent/),
      page.locator(`.event[data-event="${successEventId()}"] form button`).click(),
    ]);
    await s.receiver.waitFor(received + 1);
    await context.close();
  });
});
