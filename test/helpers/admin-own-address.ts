import type { Hono } from 'hono';
import { type AdminClient, adminClient } from './admin.ts';

let ip = 0;

/**
 * An admin client whose requests all come from a client address of its own (X-Forwarded-For, for a
 * harness that trusts it), so a per-address limit is met only by what this client does.
 */
export function clientWithOwnAddress(app: Pick<Hono, 'request'>): AdminClient {
  const c = adminClient(app);
  const address = { 'x-forwarded-for': `198.51.100.${++ip}` };
  const request = c.request.bind(c);
  c.request = (path, init = {}) =>
    request(path, { ...init, headers: { ...address, ...(init.headers as object) } });
  return c;
}
