import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';

/** One request the receiver got, with the exact body text. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the body was complete. */
  at: number;
}

/** How the receiver answers: a status (and body, headers), hang forever, or drop the connection. */
export type Reply =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | 'hang'
  | 'drop';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The most requests that were open (received, not yet answered) at once. */
  maxOpen(): number;
  /** Replaces the answering rule; `n` counts requests from 1. */
  reply(rule: (r: Received, n: number) => Reply): void;
  /** Resolves when `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1 (a free port, or `port`), recording every request. Answers 200
 * unless told otherwise.
 */
export async function startReceiver(port = 0): Promise<Receiver> {
  let rule: (r: Received, n: number) => Reply = () => ({ status: 200, body: 'ok' });
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  let waiters: { count: number; resolve: () => void }[] = [];
  let open = 0;
  let most = 0;
  const server = createServer((req, res) => {
    open++;
    most = Math.max(most, open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      const answer = rule(r, received.length);
      waiters = waiters.filter((w) => {
        if (received.length < w.count) return true;
        w.resolve();
        return false;
      });
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      const send = () => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    maxOpen: () => most,
    reply(r) {
      rule = r;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Checks both signatures of a received webhook the way a merchant would, with node:crypto only
 * (independent of Kassa's helpers): `sign` = hex HMAC-SHA256(secret, JSON text of data) where that
 * text stands verbatim in the body, and Standard Webhooks `v1,<base64 HMAC(secret, id.ts.body)>`.
 * Returns the parsed body; throws on any mismatch.
 */
export function verifyWebhook(
  secret: string,
  r: Received,
): {
  eventId: string;
  notifyType: string;
  timestamp: number;
  nonce: string;
  data: Record<string, unknown>;
  sign: string;
} {
  const parsed = JSON.parse(r.body);
  const dataText = JSON.stringify(parsed.data);
  if (!r.body.includes(`"data":${dataText},`)) throw new Error('data text is not verbatim in the body');
  const expectedSign = createHmac('sha256', secret).update(dataText, 'utf8').digest('hex');
  if (!timingSafeEqual(Buffer.from(expectedSign), Buffer.from(String(parsed.sign).padEnd(64).slice(0, 64))))
    throw new Error('sign does not verify');
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  const header = String(r.headers['webhook-signature']);
  const expected = createHmac('sha256', secret).update(`${id}.${ts}.${r.body}`, 'utf8').digest('base64');
  const ok = header.split(' ').some((part) => part.startsWith('v1,') && safeEqual(part.slice(3), expected));
  if (!ok) throw new Error('webhook-signature does not verify');
  if (id !== parsed.eventId) throw new Error('webhook-id is not the eventId');
  if (ts !== String(parsed.timestamp)) throw new Error('webhook-timestamp is not the body timestamp');
  return parsed;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Registers the closing of every receiver a test opened; returns the function that opens them. */
export function useReceivers(): (port?: number) => Promise<Receiver> {
  const open: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (port) => {
    const r = await startReceiver(port);
    open.push(r);
    return r;
  };
}
