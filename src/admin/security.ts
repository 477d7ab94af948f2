import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { ProxyTrust } from '../http/middleware/client-ip.ts';

/** The session cookie (HttpOnly, SameSite=Strict, scoped to the dashboard's path). */
export const SESSION_COOKIE = 'kassa_admin';
/** The sign-in form's CSRF cookie, set before anyone is signed in. */
export const PRE_COOKIE = 'kassa_admin_pre';
/** The language someone picked. */
export const LANG_COOKIE = 'kassa_admin_lang';

/** A fresh nonce for one page's inline style and script. */
export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The dashboard's Content-Security-Policy: nothing loads but the page itself; the one inline style
 * and the one inline script run by nonce; the live refresh may fetch this origin only; forms post
 * only here; no framing, no plugins, no <base>.
 */
export function dashboardCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every dashboard response carries besides the CSP. */
export const DASHBOARD_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Whether the request came over TLS (directly, or through a trusted proxy that says so). */
export function overTls(c: Context, trust: ProxyTrust): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trust.enabled && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

/** Cookie options of the dashboard: HttpOnly, SameSite=Strict, its own path, Secure behind TLS. */
export function cookieOptions(c: Context, basePath: string, trust: ProxyTrust, maxAgeSeconds?: number) {
  return {
    httpOnly: true,
    sameSite: 'Strict' as const,
    path: basePath,
    secure: overTls(c, trust),
    ...(maxAgeSeconds === undefined ? {} : { maxAge: Math.floor(maxAgeSeconds) }),
  };
}

/** Sets the session cookie until `expiresAt`. */
export function setSessionCookie(
  c: Context,
  token: string,
  expiresAt: number,
  now: number,
  base: string,
  trust: ProxyTrust,
) {
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, base, trust, (expiresAt - now) / 1000));
}

/** Clears the session cookie. */
export function clearSessionCookie(c: Context, basePath: string, trust: ProxyTrust): void {
  deleteCookie(c, SESSION_COOKIE, cookieOptions(c, basePath, trust));
}

/** The session token from the cookie, if any. */
export function sessionToken(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined;
}

/**
 * The CSRF token of a session: HMAC-SHA256 of a fixed label under the session's own token. Only a
 * page of this dashboard, rendered for this session, can know it; nothing needs storing.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('kassa-admin-csrf').digest('base64url');
}

/** Constant-time comparison of two tokens (false when either is missing). */
export function sameToken(a: string | undefined | null, b: string | undefined | null): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The sign-in form's CSRF token: a random value kept in its own cookie (HttpOnly, SameSite=Strict)
 * and repeated in the form; made on first need.
 */
export function preSignInToken(c: Context, basePath: string, trust: ProxyTrust): string {
  const existing = getCookie(c, PRE_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(c, PRE_COOKIE, token, cookieOptions(c, basePath, trust, 3600));
  return token;
}

/**
 * Whether a state-changing request may come from a page of another site. Browsers send
 * Sec-Fetch-Site on every request: anything but `same-origin` (or `none`, typed by the user) is
 * refused before the CSRF token is even looked at.
 */
export function crossSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
