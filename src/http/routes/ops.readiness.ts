import { Hono } from 'hono';
import { checkReadiness, type Readiness } from '../../services/check-readiness.ts';
import type { HttpContext } from '../context.ts';

/** Probes closer together than this share one check, so a flood of probes costs one write a second. */
const REUSE_MS = 1000;

/**
 * GET /readyz → 200 `{status:"ready", …}` when the database takes a write and every enabled chain's
 * scanner is within its lag budget, else 503 `{status:"not_ready", …}`; the body has the detail
 * per chain either way (services/check-readiness.ts, docs/operations.md).
 */
export function readinessRoute(ctx: HttpContext) {
  let last: Readiness | null = null;
  return new Hono().get('/readyz', async (c) => {
    const now = ctx.deps.clock.now();
    if (!last || now - last.checkedAt >= REUSE_MS || now < last.checkedAt) {
      last = await checkReadiness(ctx.deps);
    }
    const { ready, checkedAt, database, chains } = last;
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        status: ready ? 'ready' : 'not_ready',
        checkedAt: new Date(checkedAt).toISOString(),
        database,
        chains,
      },
      ready ? 200 : 503,
    );
  });
}
