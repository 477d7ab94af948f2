import { createServer, type Server } from 'node:http';

/**
 * An HTTP proxy in front of an RPC that a test can make misbehave: answer 429 or 503, hang, or be
 * down (connections refused), for the next N requests or until told otherwise.
 */
export interface FlakyProxy {
  url: string;
  /** Requests that reached the proxy. */
  hits: number;
  mode(m: 'ok' | '429' | '503' | 'hang', count?: number): void;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  let mode: 'ok' | '429' | '503' | 'hang' = 'ok';
  let remaining = Number.POSITIVE_INFINITY;
  const state = { hits: 0 };
  const server: Server = createServer(async (req, res) => {
    state.hits++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const current = remaining > 0 ? mode : 'ok';
    if (current !== 'ok') remaining--;
    if (current === '429') {
      res.writeHead(429, { 'retry-after': '0' }).end('rate limited');
      return;
    }
    if (current === '503') {
      res.writeHead(503).end('unavailable');
      return;
    }
    if (current === 'hang') return; // never answers; the client's timeout must fire
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return state.hits;
    },
    mode(m, count = Number.POSITIVE_INFINITY) {
      mode = m;
      remaining = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
