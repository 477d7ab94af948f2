import { createServer, type Server } from 'node:http';

/**
 * An HTTP proxy in front of an RPC that a test can make misbehave: answer 429 or 503, hang, or be
 * down (its port closed, so connections are refused), for the next N requests or until told otherwise.
 */
export interface FlakyProxy {
  url: string;
  /** Requests that reached the proxy. */
  hits: number;
  mode(m: 'ok' | '429' | '503' | 'hang', count?: number): void;
  /** Closes the port: connections are refused until `up()`. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the proxy on a free port; `options.down` starts it with its port closed (never listened). */
export async function startFlakyProxy(target: string, options: { down?: boolean } = {}): Promise<FlakyProxy> {
  let mode: 'ok' | '429' | '503' | 'hang' = 'ok';
  let remaining = Number.POSITIVE_INFINITY;
  const state = { hits: 0, listening: false };
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
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        state.listening = true;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!state.listening) return resolve();
      state.listening = false;
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (options.down) await stop();
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return state.hits;
    },
    mode(m, count = Number.POSITIVE_INFINITY) {
      mode = m;
      remaining = count;
    },
    down: stop,
    up: () => (state.listening ? Promise.resolve() : listen(port)),
    close: stop,
  };
}
