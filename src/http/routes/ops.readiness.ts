import { Hono } from 'hono';
import { checkReadiness, type Readiness } from '../../services/check-readiness.ts';
import type { HttpContext } from '../context.ts';

/**
 * GET /readyz → 200 when the database takes a write and every enabled chain's scanner is within its
 * lag budget, else 503 (services/check-readiness.ts, docs/operations.md). Probes less than a second
 * apart share one database write; the chains are judged on every probe. With `detail` (the admin
 * listener) the body has the database and per-chain detail, and the worker lease's holder; without it (the public listener) only
 * `{status: "ready" | "not_ready"}`, since heights and RPC errors are the operator's business.
 */
export function readinessRoute(ctx: HttpContext, options: { detail: boolean }) {
  let last: Readiness | null = null;
  return new Hono().get('/readyz', async (c) => {
    last = await checkReadiness(ctx.deps, last);
    const { ready, checkedAt, database, chains, worker } = last;
    const status = ready ? 'ready' : 'not_ready';
    c.header('Cache-Control', 'no-store');
    if (!options.detail) return c.json({ status }, ready ? 200 : 503);
    return c.json(
      {
        status,
        checkedAt: new Date(checkedAt).toISOString(),
        database: {
          writable: database.writable,
          ms: database.ms,
          error: database.error,
          probedAt: new Date(database.probedAt).toISOString(),
        },
        chains,
        worker: worker && {
          holder: worker.holder,
          acquiredAt: new Date(worker.acquiredAt).toISOString(),
          expiresAt: new Date(worker.expiresAt).toISOString(),
          live: worker.live,
        },
      },
      ready ? 200 : 503,
    );
  });
}
