import { Hono } from 'hono';
import type { HttpContext } from '../context.ts';
import { openApiDocument } from '../openapi/document.ts';

/**
 * GET /openapi.json → the OpenAPI 3.1 description of the public listener (http/openapi/), built
 * once from the zod schemas that validate the requests and describe the answers.
 */
export function openApiRoute(ctx: HttpContext) {
  const text = JSON.stringify(openApiDocument(ctx.deps.config));
  return new Hono().get('/openapi.json', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    c.header('Content-Type', 'application/json; charset=utf-8');
    return c.body(text);
  });
}
