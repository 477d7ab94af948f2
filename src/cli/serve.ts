import { type ServerType, serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { ConfigError } from '../config/config-error.ts';
import { createAdminApp } from '../http/admin-app.ts';
import { createApp, type RouteGroup } from '../http/app.ts';
import type { Deps } from '../services/deps.ts';
import { startAddressPoolLoop } from './address-pool-loop.ts';

/** A listening API server: the public listener and the admin listener. */
export interface ApiServer {
  url: string;
  port: number;
  /** The admin listener (metrics, readiness detail), bound to `admin.host`. */
  adminUrl: string;
  adminPort: number;
  close(): Promise<void>;
}

interface Listener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens with `app` on host:port; rejects (EADDRINUSE, EACCES) without leaving anything open. */
async function listen(app: Hono, host: string, port: number): Promise<Listener> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host;
  return {
    url: `http://${reach.includes(':') && !reach.startsWith('[') ? `[${reach}]` : reach}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

/**
 * Starts the HTTP API on the configured host and port and the admin listener on `admin.host` and
 * `admin.port` (127.0.0.1:9180 by default) with the operator dashboard under /admin (unless
 * `admin.dashboard` is `off`; `api-port` serves it on the public port too), with the deposit
 * address pool kept warm. If either cannot listen, neither stays open and the error is thrown.
 */
export async function startApiServer(
  deps: Deps,
  options: { extraRoutes?: RouteGroup[]; adminRoutes?: RouteGroup[]; addressPool?: number } = {},
): Promise<ApiServer> {
  const { config } = deps;
  const extraRoutes = [...(options.extraRoutes ?? [])];
  const adminRoutes = [...(options.adminRoutes ?? [])];
  if (config.admin.dashboard !== 'off') {
    // Loaded only when served, so a server without it carries none of its code.
    const { dashboardRouteGroup } = await import('../admin/dashboard.ts');
    const dashboard = dashboardRouteGroup('/admin') as RouteGroup;
    adminRoutes.push(dashboard);
    if (config.admin.dashboard === 'api-port') extraRoutes.push(dashboard);
  }
  const api = await listen(createApp(deps, { extraRoutes }), config.host, config.port);
  let admin: Listener;
  try {
    admin = await listen(
      createAdminApp(deps, { extraRoutes: adminRoutes }),
      config.admin.host,
      config.admin.port,
    );
  } catch (error) {
    await api.close();
    throw new ConfigError([
      `the admin listener cannot listen on ${config.admin.host}:${config.admin.port} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); set KASSA_ADMIN_PORT to a free port`,
    ]);
  }
  const pool = startAddressPoolLoop(deps, options.addressPool ?? 200, ['evm', 'tron', 'sui']);
  deps.logger.info({ port: api.port, host: config.host, baseUrl: config.baseUrl }, 'api listening');
  deps.logger.info(
    { port: admin.port, host: config.admin.host, dashboard: config.admin.dashboard !== 'off' },
    'admin listening (metrics, readiness detail, dashboard at /admin)',
  );
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(config.host);
  if (config.admin.dashboard === 'api-port' && !loopback)
    deps.logger.warn(
      { path: '/admin', port: api.port },
      'the operator dashboard is served on the API port: keep it behind TLS and restrict who can reach /admin',
    );
  return {
    url: api.url,
    port: api.port,
    adminUrl: admin.url,
    adminPort: admin.port,
    async close() {
      pool.stop();
      await Promise.all([api.close(), admin.close()]);
    },
  };
}
