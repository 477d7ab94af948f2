import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type FaultRule, type ProxyCall, type RuleHandle, readCall, ruleBook } from './fault-rules.ts';

export type { Fault, FaultRule, ProxyCall, RuleHandle } from './fault-rules.ts';

/**
 * A fault-injecting HTTP proxy in front of one upstream node (anvil's JSON-RPC, the fake TRON
 * node's REST API, or anything spoken over POST). It is JSON-RPC aware: a request's "method" is the
 * JSON-RPC method when the body is a JSON-RPC call, otherwise the path (`/wallet/getblock`), so a
 * rule can target `eth_getTransactionReceipt` or `broadcasttransaction` alike.
 *
 * Several named endpoints share one proxy (`endpoint('a')`, `endpoint('b')`): to the client they are
 * separate RPC URLs (so its fail-over moves between them), and rules can make one of them misbehave,
 * e.g. lag behind the chain while the other is current.
 *
 * Faults: latency, HTTP statuses (429 with Retry-After, 5xx), truncated and malformed bodies,
 * connection resets, hanging, a dropped answer after the upstream acted (the "did my broadcast go
 * out?" case), a held request or answer released on demand (to freeze a client at an exact point),
 * a replaced JSON-RPC result or error (a lagging backend that does not know a transaction, a node
 * serving another chain id), and a rewritten JSON answer for REST nodes (a stale block). The rules
 * and faults are in fault-rules.ts.
 */

export interface FaultProxy {
  /** The default endpoint's URL. */
  url: string;
  /** The URL of a named endpoint on the same proxy (same upstream). */
  endpoint(name: string): string;
  /** Requests that reached the proxy. */
  readonly hits: number;
  /** Every request seen, oldest first. */
  readonly calls: readonly ProxyCall[];
  /** Requests held by `hold` faults right now. */
  readonly held: number;
  add(rule: FaultRule): RuleHandle;
  /**
   * Makes an endpoint (or all) behave like a backend that has not seen these transactions yet:
   * receipt and transaction lookups answer null, as for an unknown hash.
   */
  hideTransactions(hashes: Iterable<string>, options?: { endpoint?: string }): RuleHandle;
  /** Releases every held request and stops holding. */
  release(): void;
  /** Removes every rule and releases everything held. */
  clear(): void;
  /** Closes the port, so connections are refused (a node that is down) until `up()`. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a fault proxy in front of `target` (an http URL) on a free port of 127.0.0.1; with
 * `down`, its port is closed from the start (connections refused until `up()`).
 */
export async function startFaultProxy(target: string, options: { down?: boolean } = {}): Promise<FaultProxy> {
  const rules = ruleBook();
  const calls: ProxyCall[] = [];
  let waiting: (() => void)[] = [];
  const state = { hits: 0, held: 0, listening: false };
  const sockets = new Set<Socket>();

  const hold = () =>
    new Promise<void>((resolve) => {
      state.held++;
      waiting.push(() => {
        state.held--;
        resolve();
      });
    });

  const forward = async (path: string, body: Buffer, headers: IncomingMessage['headers']) => {
    const upstream = await fetch(`${target.replace(/\/+$/, '')}${path === '/' ? '' : path}`, {
      method: 'POST',
      headers: { 'content-type': String(headers['content-type'] ?? 'application/json') },
      body: new Uint8Array(body),
    });
    return {
      status: upstream.status,
      contentType: upstream.headers.get('content-type') ?? 'application/json',
      body: Buffer.from(await upstream.arrayBuffer()),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    state.hits++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const { call, id } = readCall(req.url ?? '/', body.toString('utf8'));
    const { path } = call;
    calls.push(call);
    const fault = rules.pick(call);
    const send = (status: number, contentType: string, payload: Buffer | string, extra = {}) =>
      res.writeHead(status, { 'content-type': contentType, ...extra }).end(payload);

    switch (fault?.kind) {
      case 'status':
        return send(
          fault.status,
          'text/plain',
          fault.body ?? `injected ${fault.status}`,
          fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) },
        );
      case 'malformed':
        return send(200, 'application/json', '{"jsonrpc":"2.0","result":');
      case 'reset':
        return req.socket.destroy();
      case 'hang':
        return;
      case 'rpc-error':
        return send(
          200,
          'application/json',
          JSON.stringify({
            jsonrpc: '2.0',
            id: id ?? null,
            error: { code: fault.code, message: fault.message },
          }),
        );
      case 'latency':
        await new Promise((r) => setTimeout(r, fault.ms));
        break;
      case 'hold':
        if ((fault.phase ?? 'request') === 'request') await hold();
        break;
      default:
        break;
    }
    const answer = await forward(path, body, req.headers);
    if (fault?.kind === 'hold' && fault.phase === 'response') await hold();
    if (fault?.kind === 'drop-response') return req.socket.destroy();
    if (fault?.kind === 'truncate') {
      res.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': String(answer.body.length),
      });
      res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
      return req.socket.destroy();
    }
    if (fault?.kind === 'rewrite') {
      const parsed = JSON.parse(answer.body.toString('utf8')) as unknown;
      return send(answer.status, 'application/json', JSON.stringify(fault.body(parsed, call)));
    }
    if (fault?.kind === 'result') {
      const parsed = JSON.parse(answer.body.toString('utf8')) as { result?: unknown };
      const result =
        typeof fault.result === 'function'
          ? (fault.result as (u: unknown, c: ProxyCall) => unknown)(parsed.result, call)
          : fault.result;
      return send(answer.status, 'application/json', JSON.stringify({ ...parsed, result }));
    }
    return send(answer.status, answer.contentType, answer.body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        state.listening = true;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!state.listening) return resolve();
      state.listening = false;
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  if (options.down) await stop();

  const add = (rule: FaultRule): RuleHandle => rules.add(rule);
  const release = () => {
    const go = waiting;
    waiting = [];
    for (const r of go) r();
  };

  return {
    url: base,
    endpoint: (name) => `${base}/~${name}`,
    get hits() {
      return state.hits;
    },
    get held() {
      return state.held;
    },
    calls,
    add,
    hideTransactions(hashes, options = {}) {
      const hidden = new Set([...hashes].map((h) => h.toLowerCase()));
      return add({
        ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
        method: /^eth_getTransaction(Receipt|ByHash)$/,
        match: (c) =>
          Array.isArray(c.params) && typeof c.params[0] === 'string' && hidden.has(c.params[0].toLowerCase()),
        fault: { kind: 'result', result: null },
      });
    },
    release() {
      rules.remove((r) => r.fault.kind === 'hold');
      release();
    },
    clear() {
      rules.remove();
      release();
    },
    down: stop,
    up: () => (state.listening ? Promise.resolve() : listen(port)),
    close: () => {
      rules.remove();
      waiting = [];
      return stop();
    },
  };
}
