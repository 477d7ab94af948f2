import { Hono } from 'hono';
import { checkReadiness, type Readiness } from '../../services/check-readiness.ts';
import type { HttpContext } from '../context.ts';

/**
 * GET /readyz → 200 `{status:"ready", …}` when the database takes a write and every enabled chain's
 * scanner is within its lag budget, else 503 `{status:"not_ready", …}`; the body has the detail
 * per chain either way (services/check-readiness.ts, docs/operations.md). Probes less than a second
 * apart share one database write; the chains are judged on every probe.
 */
export function readinessRoute(ctx: HttpContext) {
  let last: Readiness | null = null;
  return new Hono().get('/readyz', async (c) => {
    last = await checkReadiness(ctx.deps, last);
    const { ready, checkedAt, database, chains } = last;
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        status: ready ? 'ready' : 'not_ready',
        checkedAt: new Date(checkedAt).toISOString(),
        database: {
          writable: database.writable,
          ms: database.ms,
          error: database.error,
          probedAt: new Date(database.probedAt).toISOString(),
        },
        chains,
      },
      ready ? 200 : 503,
    );
  });
}
