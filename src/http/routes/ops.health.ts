import { Hono } from 'hono';
import type { HttpContext } from '../context.ts';

/** GET /healthz → 200 `{"status":"ok"}` while the process serves HTTP; touches nothing else (liveness). */
export function healthRoute(_ctx: HttpContext) {
  return new Hono().get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
}
