import { describe, expect, it } from 'vitest';
import { checkoutCsp, frameAncestorsSource, newNonce } from './csp.ts';

describe('checkout CSP', () => {
  it("forbids everything but the nonce'd style and script, same-origin polling and the configured framers", () => {
    expect(checkoutCsp('n0nce', ['https://shop.example'])).toBe(
      "default-src 'none'; script-src 'nonce-n0nce'; style-src 'nonce-n0nce'; connect-src 'self'; " +
        "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors https://shop.example",
    );
  });

  it('has no script or connect source for pages without a script', () => {
    const csp = checkoutCsp('n', []);
    expect(checkoutCsp('n', [], false)).toBe(
      csp.replace("script-src 'nonce-n'", "script-src 'none'").replace("; connect-src 'self'", ''),
    );
  });

  it("is frame-ancestors 'none' when nothing valid is configured, and never lets config add a directive", () => {
    expect(frameAncestorsSource([])).toBe("'none'");
    expect(frameAncestorsSource(['  ', "https://a.example; script-src 'unsafe-inline'"])).toBe("'none'");
    expect(frameAncestorsSource(["'self'", 'https://*.shop.example', 'a,b'])).toBe(
      "'self' https://*.shop.example",
    );
  });

  it('makes a different nonce each time', () => {
    expect(newNonce()).not.toBe(newNonce());
    expect(newNonce()).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});
