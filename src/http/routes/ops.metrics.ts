import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { collectMetrics } from '../../services/collect-metrics.ts';
import type { HttpContext } from '../context.ts';

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * GET /metrics → Prometheus text (services/collect-metrics.ts). On the admin listener it is open
 * (`requireToken: false`: that listener is bound to 127.0.0.1). On the public listener it exists only
 * when `ops.metricsToken` (KASSA_METRICS_TOKEN) is set, and only `Authorization: Bearer <token>`
 * gets it (compared in constant time); anyone else gets 401.
 */
export function metricsRoute(ctx: HttpContext, options: { requireToken: boolean }) {
  const token = options.requireToken ? ctx.deps.config.ops.metricsToken : null;
  const app = new Hono();
  if (options.requireToken && !token) return app;
  return app.get('/metrics', async (c) => {
    if (token) {
      const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim() ?? '';
      if (!sameSecret(given, token)) {
        c.header('WWW-Authenticate', 'Bearer realm="kassa-metrics"');
        return c.text('Unauthorized\n', 401);
      }
    }
    c.header('Cache-Control', 'no-store');
    c.header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    return c.body(await collectMetrics(ctx.deps));
  });
}
