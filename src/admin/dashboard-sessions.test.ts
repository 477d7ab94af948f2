import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USER, clientOfItsOwnAddress, openDashboard, signIn } from '../../test/helpers/admin.ts';
import type { Harness } from '../../test/helpers/harness.ts';
import { base32Decode } from '../lib/base32.ts';
import { totp } from '../lib/totp.ts';
import { createAdminUser } from '../services/admin-accounts.ts';

/**
 * Dashboard sessions in process (app.request) on a migrated database: sign-out, sign-out everywhere,
 * the idle limit, and the second factor.
 */
let h: Harness;
const client = () => clientOfItsOwnAddress(h.app);

beforeAll(async () => {
  h = await openDashboard();
});
afterAll(() => h?.close());

describe('sessions', () => {
  it('ends one session on sign-out and every session on sign-out-everywhere', async () => {
    await createAdminUser(h.rt, { email: 'two@shop.example', password: 'two browsers here', role: 'viewer' });
    const [a, b, c] = [client(), client(), client()];
    for (const x of [a, b, c])
      expect((await signIn(x, 'two@shop.example', 'two browsers here')).status).toBe(303);
    const out = await a.request('/admin/logout', { form: { csrf: a.csrfOf((await a.page('/admin')).html) } });
    expect(out.headers.get('location')).toBe('/admin/login?out=1');
    expect((await a.request('/admin')).status).toBe(303);
    expect((await b.request('/admin')).status).toBe(200);
    const everywhere = await b.request('/admin/account/sign-out-everywhere', {
      form: { csrf: b.csrfOf((await b.page('/admin/account')).html) },
    });
    expect(everywhere.status).toBe(303);
    expect((await b.request('/admin')).status).toBe(303);
    expect((await c.request('/admin')).status).toBe(303);
  });

  it('ends a session idle longer than admin.idleMinutes', async () => {
    const c = client();
    expect((await signIn(c, ADMIN_USER.email, ADMIN_USER.password)).status).toBe(303);
    h.clock.advance(29 * 60_000);
    expect((await c.request('/admin')).status).toBe(200);
    h.clock.advance(31 * 60_000);
    expect((await c.request('/admin')).status).toBe(303);
  });

  it('turns on two-factor sign-in with a right code, then asks for a code that works only once', async () => {
    await createAdminUser(h.rt, { email: 'otp@shop.example', password: 'one time please', role: 'admin' });
    const c = client();
    expect((await signIn(c, 'otp@shop.example', 'one time please')).status).toBe(303);
    const begun = await c.request('/admin/account/totp/begin', {
      form: { csrf: c.csrfOf((await c.page('/admin/account')).html) },
    });
    const setup = await begun.text();
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(setup)?.[1] as string;
    expect(setup).toContain('<svg');
    const key = base32Decode(secret);
    const wrong = await c.request('/admin/account/totp/confirm', {
      form: { csrf: c.csrfOf(setup), code: totp(key, h.clock.now() + 120_000) },
    });
    expect(wrong.status).toBe(400);
    const on = await c.request('/admin/account/totp/confirm', {
      form: { csrf: c.csrfOf(setup), code: totp(key, h.clock.now()) },
    });
    expect(on.headers.get('location')).toBe('/admin/account?done=totpOn');

    h.clock.advance(30_000);
    const d = client();
    const step1 = await signIn(d, 'otp@shop.example', 'one time please');
    expect(step1.headers.get('location')).toBe('/admin/login/code?next=%2Fadmin');
    expect((await d.request('/admin')).status).toBe(303); // the half session opens nothing
    const codePage = await d.page('/admin/login/code');
    const code = totp(key, h.clock.now());
    const signedIn = await d.request('/admin/login/code', {
      form: { csrf: d.csrfOf(codePage.html), code, next: '/admin' },
    });
    expect(signedIn.status).toBe(303);
    expect((await d.request('/admin')).status).toBe(200);

    const e = client();
    await signIn(e, 'otp@shop.example', 'one time please');
    const again = await e.request('/admin/login/code', {
      form: { csrf: e.csrfOf((await e.page('/admin/login/code')).html), code },
    });
    expect(again.status).toBe(401);
    expect(await again.text()).toContain('That code is not right (or was used already).');
  });
});
