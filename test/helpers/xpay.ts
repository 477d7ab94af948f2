import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import vectors from '../fixtures/xpay/vectors.json' with { type: 'json' };
import type { Harness } from './harness.ts';

export { vectors };

/** The credentials every vector was made with: XPay's apiKey (our token) and apiSecret (our webhook secret). */
export const XPAY_KEYS = { token: vectors.meta.apiKey, webhookSecret: vectors.meta.apiSecret };

/** A merchant in XPay mode that kept the vectors' apiKey and apiSecret, made through `kassa merchant create`'s service. */
export async function vectorMerchant(h: Harness, kind: 'V2' | 'V3' = 'V3') {
  const { createMerchant } = await import('../../src/services/manage-merchants.ts');
  return createMerchant(h.rt, { kind, name: 'xpay shop', compat: 'xpay', importSecrets: XPAY_KEYS });
}

/** The harness's public app on a real socket on 127.0.0.1 (the real HTTP stack, as `kassa api` serves it). */
export async function listen(h: Harness): Promise<{ url: string; close(): Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One answer of the raw client. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends exactly these bytes with exactly these headers (node:http, no client of its own adding or
 * reordering anything but Host and Connection), as the vectors recorded the SDK sending them.
 */
export function rawRequest(
  url: string,
  input: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: input.method,
        path: input.path,
        headers: input.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(input.body ?? '');
  });
}

/** The headers a vector recorded, without the ones that belong to the recording's own connection. */
export function vectorHeaders(all: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all))
    if (v !== undefined && !['Host', 'Connection'].includes(k)) out[k] = v;
  return out;
}

/** XPay's R envelope. */
export interface XpayR<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
