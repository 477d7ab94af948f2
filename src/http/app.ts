import { Hono } from 'hono';
import { AppError } from '../domain/errors.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import type { Deps } from '../services/deps.ts';
import { MerchantDirectory } from '../services/merchant-directory.ts';
import type { HttpContext } from './context.ts';
import { asAppError, fail } from './envelope.ts';
import { accessLog } from './middleware/access-log.ts';
import { requestId, requestLogger } from './middleware/request-id.ts';
import { checkoutRoute } from './routes/checkout.ts';
import { getBalanceRoute } from './routes/merchant.get-balance.ts';
import { healthRoute } from './routes/ops.health.ts';
import { metricsRoute } from './routes/ops.metrics.ts';
import { readinessRoute } from './routes/ops.readiness.ts';
import { createCollectionRoute } from './routes/order.create-collection.ts';
import { createPayoutRoute } from './routes/order.create-payout.ts';
import { getOrderStatusRoute } from './routes/order.get-order-status.ts';
import { orderPayRoute } from './routes/order.pay.ts';
import { orderStatusRoute } from './routes/order.status.ts';
import { supportSymbolsRoute } from './routes/symbol.support-symbols.ts';

/** Extra route groups mounted by other parts (checkout page, operations endpoints). */
export type RouteGroup = (ctx: HttpContext) => Hono;

/**
 * Builds the HTTP app: every endpoint of the interface in the R<T> envelope, with request ids and
 * one error handler that maps AppError codes through http/errors.ts. Signed POST bodies are size-
 * limited where they are read (middleware/read-body.ts).
 */
export function createApp(
  deps: Deps,
  options: { extraRoutes?: RouteGroup[]; directory?: MerchantDirectory } = {},
) {
  const ctx: HttpContext = {
    deps,
    directory: options.directory ?? new MerchantDirectory(deps),
    limiter: new RateLimiter(() => deps.clock.now()),
  };
  const app = new Hono();
  app.use('*', requestId(deps.logger));
  app.use('*', accessLog(deps.logger));
  for (const route of [
    createCollectionRoute,
    createPayoutRoute,
    getBalanceRoute,
    orderStatusRoute,
    orderPayRoute,
    getOrderStatusRoute,
    supportSymbolsRoute,
    checkoutRoute,
    healthRoute,
    readinessRoute,
    metricsRoute,
    ...(options.extraRoutes ?? []),
  ]) {
    app.route('/', route(ctx));
  }
  app.notFound((c) => fail(c, new AppError('not_found')));
  app.onError((error, c) => {
    const appError = asAppError(error);
    const log = requestLogger(c, deps.logger);
    if (appError.code === 'internal') log.error({ err: error, path: c.req.path }, 'request failed');
    else log.debug({ code: appError.code, detail: appError.detail, path: c.req.path }, 'request refused');
    return fail(c, appError);
  });
  return app;
}
