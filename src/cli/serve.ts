import { type ServerType, serve } from '@hono/node-server';
import { createApp, type RouteGroup } from '../http/app.ts';
import type { Deps } from '../services/deps.ts';
import { startAddressPoolLoop } from './address-pool-loop.ts';

/** A listening API server. */
export interface ApiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the HTTP API on the configured host and port, with the deposit address pool kept warm, and
 * the operator dashboard under /admin when `admin.dashboard` is `api-port`.
 */
export async function startApiServer(
  deps: Deps,
  options: { extraRoutes?: RouteGroup[]; addressPool?: number } = {},
): Promise<ApiServer> {
  const extraRoutes = [...(options.extraRoutes ?? [])];
  if (deps.config.admin.dashboard === 'api-port') {
    // Loaded only when asked for, so a server without it carries none of its code.
    const { dashboardRouteGroup } = await import('../admin/dashboard.ts');
    extraRoutes.push(dashboardRouteGroup('/admin') as RouteGroup);
  }
  const app = createApp(deps, { extraRoutes });
  const pool = startAddressPoolLoop(deps, options.addressPool ?? 200, ['evm', 'tron', 'sui']);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: deps.config.port, hostname: deps.config.host }, () =>
      resolve(s),
    );
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : deps.config.port;
  const host = deps.config.host === '0.0.0.0' ? '127.0.0.1' : deps.config.host;
  deps.logger.info({ port, host: deps.config.host, baseUrl: deps.config.baseUrl }, 'api listening');
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(deps.config.host);
  if (deps.config.admin.dashboard === 'api-port' && !loopback)
    deps.logger.warn(
      { path: '/admin', port },
      'the operator dashboard is served on the API port: keep it behind TLS and restrict who can reach /admin',
    );
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        pool.stop();
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
