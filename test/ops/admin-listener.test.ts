import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../src/cli/serve.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { loadConfig } from '../../src/config/load.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { freePort } from '../helpers/cli.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';

/**
 * The two listeners on real sockets: the public one (API, checkout, /healthz, a bare /readyz) and
 * the admin one on 127.0.0.1 (metrics, readiness detail), as `kassa start` and `kassa api` run them.
 */
let h: Harness;
let server: ApiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await h?.close();
});

function noChains() {
  return Object.fromEntries(CHAINS.map((c) => [c, { enabled: false }]));
}

describe('the admin listener', () => {
  it('serves metrics and readiness detail on 127.0.0.1, while the public port shows neither', async () => {
    h = await makeHarness({ host: '127.0.0.1', port: 0, admin: { port: 0 }, chains: noChains() });
    server = await startApiServer(h.rt, { addressPool: 0 });
    expect(server.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.adminPort).not.toBe(server.port);

    const publicMetrics = await fetch(`${server.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    const publicReady = await fetch(`${server.url}/readyz`);
    expect(await publicReady.json()).toEqual({ status: 'ready' });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    const metrics = await fetch(`${server.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('kassa_info{network="mainnet"} 1');
    const ready = (await (await fetch(`${server.adminUrl}/readyz`)).json()) as Record<string, unknown>;
    expect(Object.keys(ready).sort()).toEqual(['chains', 'checkedAt', 'database', 'status', 'worker']);
    // The API itself is not on the admin listener.
    expect((await fetch(`${server.adminUrl}/v1/symbol/supportSymbols`)).status).toBe(404);
  });

  it('listens on 9180 of 127.0.0.1 by default; KASSA_ADMIN_PORT and KASSA_ADMIN_HOST move it', async () => {
    const defaults = await loadConfig({ env: {} });
    expect(defaults.admin).toMatchObject({ host: '127.0.0.1', port: 9180 });
    const moved = await loadConfig({ env: { KASSA_ADMIN_PORT: '9999', KASSA_ADMIN_HOST: '0.0.0.0' } });
    expect(moved.admin).toMatchObject({ host: '0.0.0.0', port: 9999 });
    await expect(loadConfig({ env: { KASSA_ADMIN_PORT: 'nine' } })).rejects.toThrow(/KASSA_ADMIN_PORT/);
  });

  it('refuses to start, leaving nothing listening, when its port is taken', async () => {
    const taken: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const publicPort = await freePort();
      h = await makeHarness({ host: '127.0.0.1', port: publicPort, admin: { port }, chains: noChains() });
      const error = await startApiServer(h.rt, { addressPool: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems[0]).toContain(`127.0.0.1:${port}`);
      expect((error as ConfigError).problems[0]).toContain('KASSA_ADMIN_PORT');
      await expect(fetch(`http://127.0.0.1:${publicPort}/healthz`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
