import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, adminAndViewer, keptLogger } from '../../../test/helpers/admin.ts';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { listBalances } from '../../db/repositories/ledger.ts';
import { listLedgerEntries } from '../../db/repositories/ledger-entries.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';
import { mountAdminDashboard } from '../dashboard.ts';

/**
 * The money page's balances per merchant and a merchant's ledger page in process: balances from
 * the ledger, entries newest first and paged, and the adjustment form with `kassa ledger adjust`'s
 * rules (signed amount, required reason, never below zero), for admins only, logged with the
 * operator's email, and applied once however often the same form is sent.
 */
let h: Harness;
let shop: MerchantCreated;
let tea: MerchantCreated;
let admin: AdminClient;
let viewer: AdminClient;
const logs = keptLogger();

beforeAll(async () => {
  h = await makeHarness();
  h.rt.logger = logs.logger;
  mountAdminDashboard(h.app, h.rt);
  ({ admin, viewer } = await adminAndViewer(h));
  shop = await h.merchant('V3');
  tea = await h.merchant('V3');
  h.clock.advance(1000);
  await h.fund(shop, 'TRON', 'USDT', '500');
  await h.fund(shop, 'ETH', 'USDC', '20.25');
  h.clock.advance(1000);
  const res = await h.post('/v1/order/createPayout', shop, {
    amount: '120',
    symbol: 'USDT',
    chain: 'TRON',
    orderId: 'PAY-9',
    receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  });
  expect((await body(res)).code).toBe(200);
});
afterAll(() => h?.close());

const rowOf = (html: string, merchantId: string, token: string) =>
  new RegExp(`<tr data-merchant="${merchantId}" data-token="${token}">([\\s\\S]*?)</tr>`).exec(html)?.[1];
const cells = (row: string | undefined) =>
  [...(row ?? '').matchAll(/<td data-label="([^"]+)"[^>]*><div>([\s\S]*?)<\/div><\/td>/g)].map(
    (c) => [c[1], c[2]?.replace(/<[^>]+>/g, '')] as const,
  );
const entryIds = (html: string) => [...html.matchAll(/<tr data-entry="(led_[a-z0-9]+)"/g)].map((r) => r[1]);

async function adjust(client: typeof admin, merchantId: string, form: Record<string, string>) {
  const page = await client.page(`/admin/money/merchants/${merchantId}`);
  const lastAdjustment = /name="lastAdjustment" value="([^"]*)"/.exec(page.html)?.[1] ?? '';
  return client.request(`/admin/money/merchants/${merchantId}/adjust`, {
    form: { csrf: client.csrfOf(page.html), lastAdjustment, ...form },
  });
}

const balance = async (merchantId: string, chain: string, symbol: string) =>
  (await listBalances(h.db, { merchantId, chain, symbol }))[0];

describe('the money page', () => {
  it('shows each merchant’s balances from the ledger: available, frozen and total per chain and token', async () => {
    const { status, html } = await admin.page('/admin/money');
    expect(status).toBe(200);
    expect(html).not.toContain('arrive with the merchant ledger');
    expect(cells(rowOf(html, shop.merchantId, 'TRON:USDT'))).toEqual([
      ['Merchant', `test V3${shop.merchantId}`],
      ['Chain', 'TRON'],
      ['Token', 'USDT'],
      ['Available', '380.00'],
      ['Frozen', '120.00'],
      ['Total', '500.00'],
      ['Updated', '2026-11-25 12:00:02 UTC'],
    ]);
    expect(cells(rowOf(html, shop.merchantId, 'ETH:USDC')).slice(3, 6)).toEqual([
      ['Available', '20.25'],
      ['Frozen', '0.00'],
      ['Total', '20.25'],
    ]);
    expect(rowOf(html, shop.merchantId, 'TRON:USDT')).toContain(
      `href="/admin/money/merchants/${shop.merchantId}"`,
    );
    // what the page does not show yet is said so, and where to look instead
    expect(html).toContain('Not on this page yet: `kassa sweeps list`');
    expect(html).toContain('No reconciliation yet.');
  });

  it('opens any merchant’s ledger from its picker, one without a balance too', async () => {
    const res = await admin.request(`/admin/money/merchants?merchant=${tea.merchantId}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/admin/money/merchants/${tea.merchantId}`);
    const page = await admin.page(`/admin/money/merchants/${tea.merchantId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('No entry yet.');
    expect((await admin.page('/admin/money/merchants/mch_nobody')).status).toBe(404);
  });
});

describe('a merchant’s ledger', () => {
  it('lists the entries newest first with their order or reason, and pages back through all of them once', async () => {
    const first = (await admin.page(`/admin/money/merchants/${shop.merchantId}`)).html;
    expect(entryIds(first)).toHaveLength(3);
    expect([...first.matchAll(/<tr data-entry="[^"]+" data-kind="([a-z_]+)"/g)].map((r) => r[1])).toEqual([
      'payout_freeze',
      'adjustment',
      'adjustment',
    ]);
    expect(first).toContain('>PAY-9</a>');
    expect(first).toContain('test top-up');

    // 120 more entries, many in the same millisecond: pages must neither repeat nor skip one
    for (let i = 0; i < 120; i++) {
      if (i % 7 === 0) h.clock.advance(1);
      await h.fund(tea, 'TRON', 'USDT', `${i + 1}`);
    }
    const seen: string[] = [];
    let path = `/admin/money/merchants/${tea.merchantId}`;
    for (let pages = 0; pages < 5; pages++) {
      const html = (await admin.page(path)).html;
      seen.push(...(entryIds(html) as string[]));
      const older = /<a href="([^"]+)" rel="next"/.exec(html)?.[1];
      if (!older) break;
      path = older.replace(/&amp;/g, '&');
    }
    const stored = await listLedgerEntries(h.db, { merchantId: tea.merchantId });
    expect(seen).toHaveLength(120);
    expect([...seen].sort()).toEqual(stored.map((e) => e.id).sort());
    // newest first (entries of the same millisecond in a fixed order of their ids)
    const at = new Map(stored.map((e) => [e.id, e.createdAt]));
    const times = seen.map((id) => at.get(id) as number);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await admin.page(`/admin/money/merchants/${tea.merchantId}?after=nonsense`)).status).toBe(400);
  });

  it('records an adjustment from the form: balance and entry with the reason, logged with the email', async () => {
    const before = await balance(shop.merchantId, 'TRON', 'USDT');
    const res = await adjust(admin, shop.merchantId, {
      token: 'TRON:USDT',
      amount: '+250.5',
      reason: 'prefunded by wire 4711',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/admin/money/merchants/${shop.merchantId}?done=adjusted`);
    expect((await balance(shop.merchantId, 'TRON', 'USDT'))?.available).toBe(
      (before?.available ?? 0n) + 250_500_000n,
    );
    const page = (await admin.page(`/admin/money/merchants/${shop.merchantId}?done=adjusted`)).html;
    expect(page).toContain('The adjustment is recorded in the ledger.');
    expect(page).toMatch(/data-kind="adjustment">[\s\S]*?\+250\.50[\s\S]*?prefunded by wire 4711/);
    // a correction written with the typographic minus the label shows
    expect(
      (await adjust(admin, shop.merchantId, { token: 'TRON:USDT', amount: '−0.5', reason: 'bank fee' }))
        .status,
    ).toBe(303);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'dashboard: ledger adjusted',
        admin: 'ops@shop.example',
        merchantId: shop.merchantId,
        chain: 'TRON',
        symbol: 'USDT',
        amount: '+250.5',
        reason: 'prefunded by wire 4711',
      }),
    );
  });

  it('applies a form sent twice once: the second answers 409 and writes nothing', async () => {
    const page = await admin.page(`/admin/money/merchants/${shop.merchantId}`);
    const form = {
      csrf: admin.csrfOf(page.html),
      lastAdjustment: /name="lastAdjustment" value="([^"]*)"/.exec(page.html)?.[1] as string,
      token: 'ETH:USDC',
      amount: '+10',
      reason: 'double click',
    };
    expect(form.lastAdjustment).toMatch(/^led_/);
    const path = `/admin/money/merchants/${shop.merchantId}/adjust`;
    expect((await admin.request(path, { form })).status).toBe(303);
    const twice = await admin.request(path, { form });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain('Another adjustment of');
    expect((await balance(shop.merchantId, 'ETH', 'USDC'))?.available).toBe(30_250_000n);
  });

  it('refuses a blank reason, a bad amount, an unknown token and a correction below zero, changing nothing', async () => {
    const before = await listLedgerEntries(h.db, { merchantId: shop.merchantId });
    const cases: [Record<string, string>, number, string][] = [
      [{ token: 'TRON:USDT', amount: '+5', reason: '  ' }, 400, 'An adjustment needs a reason.'],
      [{ token: 'TRON:USDT', amount: '+1.0000001', reason: 'x' }, 400, 'at most 6 decimals'],
      [{ token: 'TRON:USDT', amount: 'ten', reason: 'x' }, 400, 'signed decimal'],
      [{ token: 'TRON:USDT', amount: '0', reason: 'x' }, 400, 'signed decimal'],
      [{ token: 'TRON:DOGE', amount: '+5', reason: 'x' }, 400, 'DOGE is not a token on TRON.'],
      [{ token: '', amount: '+5', reason: 'x' }, 400, 'Unknown chain'],
      [{ token: 'TRON:USDT', amount: '+5', reason: 'x'.repeat(301) }, 400, 'at most 300 characters'],
      [{ token: 'ETH:USDC', amount: '-1000', reason: 'oops' }, 409, 'would take it below zero'],
    ];
    for (const [form, status, message] of cases) {
      const res = await adjust(admin, shop.merchantId, form);
      expect(res.status, JSON.stringify(form)).toBe(status);
      expect(await res.text(), JSON.stringify(form)).toContain(message);
    }
    expect(await listLedgerEntries(h.db, { merchantId: shop.merchantId })).toEqual(before);
  });

  it('shows a viewer no form and refuses an adjustment sent anyway with 403', async () => {
    const page = await viewer.page(`/admin/money/merchants/${shop.merchantId}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('/adjust"');
    const before = await balance(shop.merchantId, 'TRON', 'USDT');
    const res = await viewer.request(`/admin/money/merchants/${shop.merchantId}/adjust`, {
      form: { csrf: viewer.csrfOf(page.html), token: 'TRON:USDT', amount: '+1000', reason: 'sneaky' },
    });
    expect(res.status).toBe(403);
    const noCsrf = await admin.request(`/admin/money/merchants/${shop.merchantId}/adjust`, {
      form: { token: 'TRON:USDT', amount: '+1000', reason: 'sneaky' },
    });
    expect(noCsrf.status).toBe(403);
    expect(await balance(shop.merchantId, 'TRON', 'USDT')).toEqual(before);
  });
});
