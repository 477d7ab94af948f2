import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, adminAndViewer } from '../../../test/helpers/admin.ts';
import { type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { describeMerchants } from '../../services/manage-merchants.ts';
import { mountAdminDashboard } from '../dashboard.ts';

/**
 * The merchants page's compatibility mode in process: shown to everyone, set by admins with CSRF
 * (the token warning when a merchant leaves XPay mode), chosen when a merchant is created (the rest
 * of the merchants page is tested in dashboard.test.ts).
 */
let h: Harness;
let admin: AdminClient;
let viewer: AdminClient;

beforeAll(async () => {
  h = await makeHarness();
  mountAdminDashboard(h.app, h.rt);
  ({ admin, viewer } = await adminAndViewer(h));
});
afterAll(() => h?.close());

describe('a merchant’s compatibility mode on the dashboard', () => {
  it('shows each merchant’s compatibility mode and lets an admin set it (CSRF), never a viewer', async () => {
    const m = await h.merchant('V3');
    const row = (html: string) =>
      new RegExp(`data-merchant="${m.merchantId}".*?</tr>`, 's').exec(html)?.[0] ?? '';
    expect(row((await admin.page('/admin/merchants')).html)).toMatch(/<option value="none" selected="">/);
    expect(row((await viewer.page('/admin/merchants')).html)).toContain('data-compat="none"');
    const csrf = admin.csrfOf((await admin.page('/admin/merchants')).html);
    const noCsrf = await admin.request(`/admin/merchants/${m.merchantId}/compat`, {
      form: { compat: 'xpay' },
    });
    expect(noCsrf.status).toBe(403);
    const viewerCsrf = viewer.csrfOf((await viewer.page('/admin/merchants')).html);
    const byViewer = await viewer.request(`/admin/merchants/${m.merchantId}/compat`, {
      form: { csrf: viewerCsrf, compat: 'xpay' },
    });
    expect(byViewer.status).toBe(403);
    expect(
      (await admin.request(`/admin/merchants/${m.merchantId}/compat`, { form: { csrf, compat: 'both' } }))
        .status,
    ).toBe(400);
    expect((await describeMerchants(h.rt)).find((x) => x.merchantId === m.merchantId)?.compat).toBe('none');

    const set = await admin.request(`/admin/merchants/${m.merchantId}/compat`, {
      form: { csrf, compat: 'xpay' },
    });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/admin/merchants?done=compat');
    expect((await describeMerchants(h.rt)).find((x) => x.merchantId === m.merchantId)?.compat).toBe('xpay');
    expect(row((await viewer.page('/admin/merchants')).html)).toContain('data-compat="xpay"');
    const back = await admin.request(`/admin/merchants/${m.merchantId}/compat`, {
      form: { csrf, compat: 'none' },
    });
    expect(back.headers.get('location')).toBe('/admin/merchants?done=compatLeft');
    expect((await admin.page('/admin/merchants?done=compatLeft')).html).toContain(
      'rotate it before it signs',
    );
  });

  it('creates a merchant in XPay mode', async () => {
    const csrf = admin.csrfOf((await admin.page('/admin/merchants')).html);
    const res = await admin.request('/admin/merchants', {
      form: { csrf, kind: 'V3', name: 'XPay shop', compat: 'xpay' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<dt>Compatibility</dt><dd class="mono">XPay</dd>');
    expect((await describeMerchants(h.rt)).find((x) => x.name === 'XPay shop')?.compat).toBe('xpay');
  });
});
