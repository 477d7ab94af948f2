import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/helpers/admin.ts';
import { clientWithOwnAddress } from '../../../test/helpers/admin-own-address.ts';
import { type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { createAdminUser } from '../../services/admin-accounts.ts';
import { mountAdminDashboard } from '../dashboard.ts';

/**
 * Signing in to the dashboard in process (app.request) on a migrated database: the form under its
 * CSP, wrong passwords, the session cookie, CSRF, the per-address limit and the account lock. Each
 * test signs in from its own client address (X-Forwarded-For, trusted here) so the per-address
 * limit is tested on its own. The pages once signed in: ../dashboard.test.ts.
 */
let h: Harness;
const ADMIN = { email: 'ops@shop.example', password: 'correct horse battery' };
const client = () => clientWithOwnAddress(h.app);

beforeAll(async () => {
  h = await makeHarness({ trustProxy: true });
  mountAdminDashboard(h.app, h.rt);
  await createAdminUser(h.rt, { ...ADMIN, role: 'admin' });
});
afterAll(() => h?.close());

describe('signing in', () => {
  it('sends a visitor who is not signed in to the sign-in form, under a strict CSP', async () => {
    const c = client();
    const res = await c.request('/admin/orders?q=INV-1');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/login?next=%2Fadmin%2Forders%3Fq%3DINV-1');
    const form = await c.page('/admin/login');
    expect(form.status).toBe(200);
    expect(form.res.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    );
    expect(form.res.headers.get('cache-control')).toBe('no-store');
    expect(form.res.headers.get('x-frame-options')).toBe('DENY');
    expect(form.html).toContain('name="email"');
    expect(form.html).toContain('name="password"');
    expect(form.html).not.toMatch(/<script[^>]*src=|<link[^>]*stylesheet|https?:\/\/(?!www\.w3\.org)/);
    expect(form.res.headers.getSetCookie().join('\n')).toMatch(
      /^kassa_admin_pre=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/admin; HttpOnly; SameSite=Strict$/m,
    );
  });

  it('refuses a wrong password with 401, and answers an unknown email the same way', async () => {
    const wrong = await signIn(client(), ADMIN.email, 'not the password at all');
    const unknown = await signIn(client(), 'nobody@shop.example', 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = (html: string) => /id="sign-in-error">([^<]*)</.exec(html)?.[1];
    const [a, b] = [message(await wrong.text()), message(await unknown.text())];
    expect(a).toBe('That email and password do not match an account.');
    expect(b).toBe(a);
    expect(wrong.headers.getSetCookie().some((l) => l.startsWith('kassa_admin='))).toBe(false);
  });

  it('signs in with a session cookie that is HttpOnly and SameSite=Strict on /admin, Secure only behind TLS', async () => {
    const plain = await signIn(client(), ADMIN.email, ADMIN.password);
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/admin');
    const cookie = plain.headers.getSetCookie().find((l) => l.startsWith('kassa_admin=')) as string;
    expect(cookie).toMatch(
      /^kassa_admin=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/admin; HttpOnly; SameSite=Strict$/,
    );

    const tls = client();
    const request = tls.request.bind(tls);
    tls.request = (path, init = {}) =>
      request(path, { ...init, headers: { 'x-forwarded-proto': 'https', ...(init.headers as object) } });
    const secure = await signIn(tls, ADMIN.email, ADMIN.password);
    expect(secure.headers.getSetCookie().find((l) => l.startsWith('kassa_admin='))).toMatch(/; Secure(;|$)/);
  });

  it('refuses a sign-in form without its CSRF token, and a POST another site made', async () => {
    const c = client();
    const form = await c.page('/admin/login');
    const missing = await c.request('/admin/login', {
      form: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain('This form is out of date or did not come from this dashboard.');
    const crossSite = await c.request('/admin/login', {
      form: { csrf: c.csrfOf(form.html), email: ADMIN.email, password: ADMIN.password },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(c.cookies.has('kassa_admin')).toBe(false);
  });

  it('limits attempts per client address: the 11th in 15 minutes is refused, even with the right password', async () => {
    const c = client();
    // Unknown emails, so no account lock is at work: only the address limit.
    for (let i = 0; i < 10; i++)
      expect((await signIn(c, `nobody${i}@shop.example`, 'wrong password')).status).toBe(401);
    const refused = await signIn(c, ADMIN.email, ADMIN.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Too many sign-in attempts from this address.');
    expect((await signIn(client(), ADMIN.email, ADMIN.password)).status).toBe(303);
  });

  it('takes its share of the per-address limit when one of two API processes: the 6th is refused', async () => {
    h.rt.config.api.processes = 2;
    try {
      const c = client();
      for (let i = 0; i < 5; i++)
        expect((await signIn(c, `nobody-half${i}@shop.example`, 'wrong password')).status).toBe(401);
      expect((await signIn(c, ADMIN.email, ADMIN.password)).status).toBe(429);
    } finally {
      h.rt.config.api.processes = 1;
    }
  });

  it('locks an account after 5 wrong passwords in a row, even against the right one, until the lock ends', async () => {
    await createAdminUser(h.rt, {
      email: 'locked@shop.example',
      password: 'a long enough password',
      role: 'viewer',
    });
    for (let i = 0; i < 4; i++)
      expect((await signIn(client(), 'locked@shop.example', `guess ${i} guess`)).status).toBe(401);
    const fifth = await signIn(client(), 'locked@shop.example', 'guess 5 guess');
    expect(fifth.status).toBe(429);
    const right = await signIn(client(), 'locked@shop.example', 'a long enough password');
    expect(right.status).toBe(429);
    expect(await right.text()).toContain('Too many wrong attempts on this account.');
    h.clock.advance(15 * 60_000 + 1000);
    expect((await signIn(client(), 'locked@shop.example', 'a long enough password')).status).toBe(303);
  });
});
