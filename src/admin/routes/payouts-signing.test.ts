import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, adminAndViewer, keptLogger } from '../../../test/helpers/admin.ts';
import { type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { pausedChains } from '../../services/payout-pause.ts';
import { mountAdminDashboard } from '../dashboard.ts';

/**
 * Payout signing paused and resumed per chain from the payouts page, in process: the switch, the
 * state shown, and the operator's email in the log.
 */
let h: Harness;
let admin: AdminClient;
const logs = keptLogger();

beforeAll(async () => {
  h = await makeHarness();
  h.rt.logger = logs.logger;
  mountAdminDashboard(h.app, h.rt);
  ({ admin } = await adminAndViewer(h));
});
afterAll(() => h?.close());

describe('signing per chain', () => {
  it('pauses and resumes one chain or every chain, and shows the state', async () => {
    const csrf = admin.csrfOf((await admin.page('/admin/payouts')).html);
    const pause = await admin.request('/admin/payouts/pause', { form: { csrf, chain: 'TRON' } });
    expect(pause.status).toBe(303);
    expect(pause.headers.get('location')).toBe('/admin/payouts?done=paused');
    expect(await pausedChains(h.rt)).toEqual(new Set(['TRON']));
    const page = (await admin.page('/admin/payouts')).html;
    expect(page).toMatch(/data-chain="TRON" data-paused="yes"/);
    expect(page).toMatch(/data-chain="ETH" data-paused="no"/);
    expect(page).toContain('Signing is paused on TRON: their queue waits.');
    expect(page).toContain('action="/admin/payouts/resume"');

    await admin.request('/admin/payouts/pause', { form: { csrf } });
    expect((await pausedChains(h.rt)).size).toBe(6);
    await admin.request('/admin/payouts/resume', { form: { csrf, chain: 'ETH' } });
    expect(await pausedChains(h.rt)).not.toContain('ETH');
    expect((await admin.request('/admin/payouts/pause', { form: { csrf, chain: 'BTC' } })).status).toBe(400);
    await admin.request('/admin/payouts/resume', { form: { csrf } });
    expect(await pausedChains(h.rt)).toEqual(new Set());
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'dashboard: payouts paused', admin: 'ops@shop.example', chain: 'TRON' }),
    );
  });
});
