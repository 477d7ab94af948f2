import { randomBytes } from 'node:crypto';

/** A fresh nonce for one response's inline style and script. */
export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * `frame-ancestors` sources from config: each must be one CSP source token (no spaces, `;` or `,`),
 * so a configured value can never add a directive. Nothing valid left means `'none'`.
 */
export function frameAncestorsSource(configured: readonly string[]): string {
  const sources = configured.map((s) => s.trim()).filter((s) => s !== '' && /^[^\s;,]+$/.test(s));
  return sources.length > 0 ? sources.join(' ') : "'none'";
}

/**
 * The checkout page's Content-Security-Policy: nothing loads but the page itself; the one inline
 * style and the one inline script run by nonce (`script` false for pages without a script, such as
 * the error page); polling may only reach this origin; forms, plugins, <base> and framing are off
 * except for the operator's `frame-ancestors`.
 */
export function checkoutCsp(nonce: string, frameAncestors: readonly string[], script = true): string {
  return [
    "default-src 'none'",
    script ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    `style-src 'nonce-${nonce}'`,
    script ? "connect-src 'self'" : null,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestorsSource(frameAncestors)}`,
  ]
    .filter((d) => d !== null)
    .join('; ');
}

/** Headers every checkout response carries besides the CSP. */
export function checkoutHeaders(frameAncestors: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Language',
  };
  // Browsers without CSP level 2 still refuse to be framed when nobody may frame the page.
  if (frameAncestorsSource(frameAncestors) === "'none'") headers['X-Frame-Options'] = 'DENY';
  return headers;
}
