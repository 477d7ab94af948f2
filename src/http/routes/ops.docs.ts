import { Hono } from 'hono';
import { newNonce } from '../../checkout/csp.ts';
import type { HttpContext } from '../context.ts';
import { openApiDocument } from '../openapi/document.ts';
import { publicOperations } from '../openapi/operations.ts';
import { renderReferencePage } from '../openapi/reference-page.tsx';

/**
 * GET /docs → the API reference page rendered from the OpenAPI document: no external asset, a
 * strict Content-Security-Policy (its one style and one script run by nonce), not framable.
 */
export function docsRoute(ctx: HttpContext) {
  const { config } = ctx.deps;
  const document = openApiDocument(config);
  const operations = publicOperations({ metrics: config.ops.metricsToken !== null });
  return new Hono().get('/docs', (c) => {
    const nonce = newNonce();
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    return c.html(renderReferencePage({ operations, document, baseUrl: config.baseUrl, nonce }));
  });
}
