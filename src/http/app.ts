import { Hono } from 'hono';
import { AppError } from '../domain/errors.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import type { Deps } from '../services/deps.ts';
import { MerchantDirectory } from '../services/merchant-directory.ts';
import type { HttpContext } from './context.ts';
import { asAppError, fail } from './envelope.ts';
import { logRefusal } from './log-refusal.ts';
import { accessLog } from './middleware/access-log.ts';
import { ProxyTrust } from './middleware/client-ip.ts';
import { requestId } from './middleware/request-id.ts';
import { checkoutRoute } from './routes/checkout.ts';
import { getBalanceRoute } from './routes/merchant.get-balance.ts';
import { docsRoute } from './routes/ops.docs.ts';
import { healthRoute } from './routes/ops.health.ts';
import { metricsRoute } from './routes/ops.metrics.ts';
import { openApiRoute } from './routes/ops.openapi.ts';
import { readinessRoute } from './routes/ops.readiness.ts';
import { createCollectionRoute } from './routes/order.create-collection.ts';
import { createPayoutRoute } from './routes/order.create-payout.ts';
import { getOrderStatusRoute } from './routes/order.get-order-status.ts';
import { orderPayRoute } from './routes/order.pay.ts';
import { orderStatusRoute } from './routes/order.status.ts';
import { supportSymbolsRoute } from './routes/symbol.support-symbols.ts';

/** Extra route groups mounted by other parts (checkout page, operations endpoints). */
export type RouteGroup = (ctx: HttpContext) => Hono;

/** The context routes share: dependencies, merchant directory, limiters, proxy trust. */
export function createHttpContext(deps: Deps, directory?: MerchantDirectory): HttpContext {
  return {
    deps,
    directory: directory ?? new MerchantDirectory(deps),
    limiter: new RateLimiter(() => deps.clock.now()),
    authFailures: new RateLimiter(() => deps.clock.now()),
    proxyTrust: new ProxyTrust(deps.config.trustProxy),
  };
}

/**
 * A Hono app with request ids, the access log, `routes` mounted at `/`, and one error handler that
 * maps AppError codes through http/errors.ts into the R<T> envelope and logs by log-refusal.ts.
 */
export function mountRoutes(ctx: HttpContext, routes: RouteGroup[]): Hono {
  const { deps } = ctx;
  const app = new Hono();
  app.use('*', requestId(deps.logger));
  app.use('*', accessLog(deps.logger));
  for (const route of routes) app.route('/', route(ctx));
  app.notFound((c) => fail(c, new AppError('not_found')));
  app.onError((error, c) => {
    const appError = asAppError(error);
    logRefusal(c, deps.logger, appError, error);
    return fail(c, appError);
  });
  return app;
}

/**
 * The public app (the API port): every endpoint of the interface, the checkout page, `/healthz`,
 * a `/readyz` that says only ready or not, and the API's description (`/openapi.json`, `/docs`). `/metrics` is here only when KASSA_METRICS_TOKEN is
 * set (then behind it); the rest of operations lives on the admin app (admin-app.ts). Signed POST
 * bodies are size- and depth-limited where they are read (middleware/signed-post.ts).
 */
export function createApp(
  deps: Deps,
  options: { extraRoutes?: RouteGroup[]; directory?: MerchantDirectory } = {},
) {
  return mountRoutes(createHttpContext(deps, options.directory), [
    createCollectionRoute,
    createPayoutRoute,
    getBalanceRoute,
    orderStatusRoute,
    orderPayRoute,
    getOrderStatusRoute,
    supportSymbolsRoute,
    checkoutRoute,
    healthRoute,
    (ctx) => readinessRoute(ctx, { detail: false }),
    (ctx) => metricsRoute(ctx, { requireToken: true }),
    openApiRoute,
    docsRoute,
    ...(options.extraRoutes ?? []),
  ]);
}
