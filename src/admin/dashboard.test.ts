import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOrder } from '../../test/checkout/orders.ts';
import { payByScan, signIn } from '../../test/helpers/admin.ts';
import { clientWithOwnAddress } from '../../test/helpers/admin-own-address.ts';
import { type Harness, makeHarness } from '../../test/helpers/harness.ts';
import { findWebhookEvent } from '../db/repositories/webhook-resend.ts';
import { createAdminUser } from '../services/admin-accounts.ts';
import { mountAdminDashboard } from './dashboard.ts';

/**
 * The dashboard in process (app.request) on a migrated database, signed in: the pages at their
 * addresses, search, roles, CSRF on actions, webhook resends, merchants. Each client comes from its
 * own client address (X-Forwarded-For, trusted here). Signing in itself: routes/sign-in.test.ts.
 */
let h: Harness;
const ADMIN = { email: 'ops@shop.example', password: 'correct horse battery' };
const VIEWER = { email: 'look@shop.example', password: 'staple paper clip' };
const client = () => clientWithOwnAddress(h.app);

beforeAll(async () => {
  h = await makeHarness({ trustProxy: true });
  mountAdminDashboard(h.app, h.rt);
  await createAdminUser(h.rt, { ...ADMIN, role: 'admin' });
  await createAdminUser(h.rt, { ...VIEWER, role: 'viewer' });
});
afterAll(() => h?.close());

describe('a signed-in operator', () => {
  let admin: ReturnType<typeof client>;
  let viewer: ReturnType<typeof client>;
  let orderRef: string;
  let eventId: string;
  const txid = `0x${'7e'.repeat(32)}`;

  beforeAll(async () => {
    admin = client();
    viewer = client();
    expect((await signIn(admin, ADMIN.email, ADMIN.password)).status).toBe(303);
    expect((await signIn(viewer, VIEWER.email, VIEWER.password)).status).toBe(303);
    const m = await h.merchant('V2');
    h.clock.advance(1100);
    const res = await h.post('/v1/order/createCollection', m, {
      amount: '25.5',
      symbol: 'USDT',
      chain: 'ETH',
      orderId: 'INV-1042',
      uid: 'customer-7',
    });
    expect(res.status).toBe(200);
    const order = readOrder(h, { merchant: m, orderId: 'INV-1042' });
    orderRef = order.id;
    payByScan(h.db, order, { txid, now: h.clock.now() });
    h.clock.advance(5000);
    eventId = (await admin.page(`/admin/orders/${orderRef}`)).html.match(
      /data-event="(evt_[a-z0-9]+)"/,
    )?.[1] as string;
    expect(eventId).toMatch(/^evt_/);
  });

  it('sees every page at its address', async () => {
    for (const path of [
      '',
      '/orders',
      `/orders/${orderRef}`,
      '/payouts',
      '/money',
      '/merchants',
      '/webhooks',
      '/deposits',
      '/account',
    ]) {
      const page = await admin.page(`/admin${path}`);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toMatch(/<h1>[^<]+/);
    }
    expect((await admin.page('/admin/nowhere')).status).toBe(404);
    expect((await admin.page('/admin/orders/ord_doesnotexist0000000')).status).toBe(404);
  });

  it('shows the last reconciliation on the money page, with each unexplained difference', async () => {
    expect((await admin.page('/admin/money')).html).toContain('No reconciliation yet.');
    const hot = `0x${'ab'.repeat(20)}`;
    const report = {
      id: 'rec_dashboard0000000000',
      ok: false,
      inFlight: 1,
      chains: [
        { chain: 'ETH' },
        { chain: 'TRON', error: 'TRON: node unreachable at https://tron.example (timeout)' },
      ],
      differences: [
        {
          chain: 'ETH',
          address: hot,
          role: 'hot',
          symbol: 'USDT',
          status: 'unexplained',
          expected: '120.00',
          actual: '113.00',
          difference: '-7.00',
        },
        {
          chain: 'ETH',
          address: hot,
          role: 'hot',
          symbol: 'ETH',
          status: 'in_flight',
          expected: '1.00',
          actual: '0.99',
          difference: '-0.01',
        },
      ],
    };
    await h.rt.db.recordReconciliation({
      run: {
        id: report.id,
        startedAt: h.clock.now(),
        finishedAt: h.clock.now(),
        chains: ['ETH', 'TRON'],
        addresses: 42,
        unexplained: 1,
        report: JSON.stringify(report),
      },
      floats: [],
      txFees: [],
    });
    const html = (await admin.page('/admin/money')).html;
    expect(html).toMatch(
      /data-s="bad">unexplained<\/span> Last run [^<]+ UTC: 42 addresses, 1 unexplained, 1 in flight\./,
    );
    expect(html).toContain('TRON was not checked: TRON: node unreachable at https://tron.example (timeout)');
    const rows = html.match(/<table class="stack" id="reconcile-differences">[\s\S]*?<\/table>/)?.[0] ?? '';
    expect(rows).toContain(hot);
    expect(rows).toContain('-7.00');
    expect(rows).not.toContain('-0.01'); // in flight: settles by itself
  });

  it('finds the paid order by orderId, uid, deposit address and txid (in any hex case)', async () => {
    const order = (await admin.page(`/admin/orders/${orderRef}`)).html;
    const address = /Deposit address<\/dt><dd><span class="mono">([^<]+)</.exec(order)?.[1] as string;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    for (const q of [
      'INV-1042',
      'customer-7',
      address,
      address.toLowerCase(),
      txid,
      txid.toUpperCase().replace('0X', '0x'),
    ]) {
      const list = await admin.page(`/admin/orders?q=${encodeURIComponent(q)}`);
      expect(list.html.match(/data-order="(ord_[a-z0-9]+)"/g), q).toEqual([`data-order="${orderRef}"`]);
    }
    expect((await admin.page(`/admin/orders?q=${'ab'.repeat(32)}`)).html).toContain('id="orders-empty"');
  });

  it('answers a bad filter with 400, not a page of wrong results', async () => {
    expect((await admin.page('/admin/orders?status=PAID')).status).toBe(400);
    expect((await admin.page('/admin/orders?from=2026-02-30')).status).toBe(400);
    expect((await admin.page('/admin/orders?after=nonsense')).status).toBe(400);
  });

  it('resends a webhook from the order page: queued again with a fresh window, back to the order with a note', async () => {
    const page = await admin.page(`/admin/orders/${orderRef}`);
    const res = await admin.request(`/admin/webhooks/${eventId}/resend`, {
      form: { csrf: admin.csrfOf(page.html), back: `/admin/orders/${orderRef}` },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/admin/orders/${orderRef}?done=resent`);
    const event = findWebhookEvent(h.db, eventId);
    expect(event).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: h.clock.now() });
    expect((await admin.page(`/admin/orders/${orderRef}?done=resent`)).html).toContain(
      'The webhook is queued again',
    );
  });

  it('refuses an action without the CSRF token or with another session’s token, changing nothing', async () => {
    const before = findWebhookEvent(h.db, eventId);
    const none = await admin.request(`/admin/webhooks/${eventId}/resend`, { form: { back: '/admin' } });
    expect(none.status).toBe(403);
    const viewerToken = viewer.csrfOf((await viewer.page('/admin')).html);
    const other = await admin.request(`/admin/webhooks/${eventId}/resend`, { form: { csrf: viewerToken } });
    expect(other.status).toBe(403);
    const adminToken = admin.csrfOf((await admin.page('/admin')).html);
    const crossSite = await admin.request(`/admin/webhooks/${eventId}/resend`, {
      form: { csrf: adminToken },
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(findWebhookEvent(h.db, eventId)).toEqual(before);
  });

  it('lets a viewer read every page, shows them no action, and refuses their actions with 403', async () => {
    const page = await viewer.page(`/admin/orders/${orderRef}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('/resend');
    expect(page.html).toContain('You are a viewer');
    const before = findWebhookEvent(h.db, eventId);
    const csrf = viewer.csrfOf(page.html);
    for (const [path, form] of [
      [`/admin/webhooks/${eventId}/resend`, {}],
      ['/admin/merchants', { kind: 'V3', name: 'sneaky' }],
    ] as const) {
      const res = await viewer.request(path, { form: { csrf, ...form } });
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain('Your role is viewer');
    }
    expect(findWebhookEvent(h.db, eventId)).toEqual(before);
    expect((await admin.page('/admin/merchants')).html).not.toContain('sneaky');
  });

  it('answers a resend of an unknown event with 404', async () => {
    const csrf = admin.csrfOf((await admin.page('/admin')).html);
    expect((await admin.request('/admin/webhooks/evt_nope/resend', { form: { csrf } })).status).toBe(404);
  });

  it('creates a merchant and shows its secrets once, on the answer to the POST', async () => {
    const csrf = admin.csrfOf((await admin.page('/admin/merchants')).html);
    const res = await admin.request('/admin/merchants', { form: { csrf, kind: 'V3', name: 'Tea house' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const token = /Token \(signs API requests\)<\/dt><dd class="mono">([0-9a-f]{64})</.exec(html)?.[1];
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const list = (await admin.page('/admin/merchants')).html;
    expect(list).toContain('Tea house');
    expect(list).not.toContain(token as string);
  });

  it('refuses to disable a merchant without the tick, then disables it with it', async () => {
    const m = await h.merchant('V3');
    const csrf = admin.csrfOf((await admin.page('/admin/merchants')).html);
    expect((await admin.request(`/admin/merchants/${m.merchantId}/disable`, { form: { csrf } })).status).toBe(
      400,
    );
    const ok = await admin.request(`/admin/merchants/${m.merchantId}/disable`, {
      form: { csrf, confirm: 'yes' },
    });
    expect(ok.status).toBe(303);
    expect((await admin.page('/admin/merchants')).html).toMatch(
      new RegExp(`data-merchant="${m.merchantId}".*?data-s="disabled"`),
    );
  });
});
