import type { Deps } from '../services/deps.ts';
import { createHttpContext, mountRoutes, type RouteGroup } from './app.ts';
import { healthRoute } from './routes/ops.health.ts';
import { metricsRoute } from './routes/ops.metrics.ts';
import { readinessRoute } from './routes/ops.readiness.ts';

/**
 * The operator's routes, served only on the admin listener (`admin.host`:`admin.port`, 127.0.0.1:9180
 * by default): `/metrics` without a token, `/readyz` with the database and per-chain detail, and
 * `/healthz`. This list is the one place admin routes are added (the operator dashboard goes here).
 */
export const ADMIN_ROUTES: RouteGroup[] = [
  healthRoute,
  (ctx) => readinessRoute(ctx, { detail: true }),
  (ctx) => metricsRoute(ctx, { requireToken: false }),
];

/** The admin app: ADMIN_ROUTES plus `extraRoutes`, with request ids and the R<T> error envelope. */
export function createAdminApp(deps: Deps, options: { extraRoutes?: RouteGroup[] } = {}) {
  return mountRoutes(createHttpContext(deps), [...ADMIN_ROUTES, ...(options.extraRoutes ?? [])]);
}
