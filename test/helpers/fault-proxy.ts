import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { grpcRequest, grpcStatusHeaders, grpcWebFormatOf, rewriteGrpc } from './fault-proxy-grpc.ts';
import { describeJsonCall, replaceResult, rpcErrorBody } from './fault-proxy-jsonrpc.ts';
import { createRuleBook, type FaultRule, type ProxyCall, type RuleHandle } from './fault-rules.ts';

/**
 * A fault-injecting HTTP proxy in front of one upstream node (anvil's JSON-RPC, the fake TRON
 * node's REST API, the fake Sui node's gRPC-Web, or anything spoken over POST). It is JSON-RPC
 * aware: a request's "method" is the JSON-RPC method when the body is a JSON-RPC call, otherwise the
 * path (`/wallet/getblock`, `/sui.rpc.v2.LedgerService/GetCheckpoint`), so a rule can target
 * `eth_getTransactionReceipt`, `broadcasttransaction` or `GetCheckpoint` alike. It is gRPC-Web aware
 * too: the `sui.rpc.v2` request is decoded into `params`, answers keep their gRPC headers, and a
 * rewrite gets and returns the decoded response message.
 *
 * Several named endpoints share one proxy (`endpoint('a')`, `endpoint('b')`): to the client they are
 * separate RPC URLs (so its fail-over moves between them), and rules can make one of them misbehave,
 * e.g. lag behind the chain while the other is current.
 *
 * Faults: latency, HTTP statuses (429 with Retry-After, 5xx), truncated and malformed bodies,
 * connection resets, hanging, a dropped answer after the upstream acted (the "did my broadcast go
 * out?" case), a held request or answer released on demand (to freeze a client at an exact point),
 * a replaced JSON-RPC result or error (a lagging backend that does not know a transaction, a node
 * serving another chain id), a rewritten answer for REST and gRPC nodes (a stale block, another
 * chain id), and a gRPC status without reaching the node (NOT_FOUND from a node that lags).
 *
 * The rules and how one is picked: fault-rules.ts; the JSON-RPC and REST side:
 * fault-proxy-jsonrpc.ts; the gRPC-Web side: fault-proxy-grpc.ts.
 */

export type { Fault, FaultRule, ProxyCall, RuleHandle } from './fault-rules.ts';

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

const ENDPOINT_PREFIX = /^\/~([A-Za-z0-9_-]+)(\/.*)?$/;
/** Headers that belong to one connection, never forwarded either way. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * Starts a fault proxy in front of `target` (an http URL) on a free port of 127.0.0.1; with
 * `down`, its port is closed from the start (connections refused until `up()`).
 */
export async function startFaultProxy(target: string, options: { down?: boolean } = {}): Promise<FaultProxy> {
  const rules = createRuleBook();
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
    const sent: Record<string, string> = { 'content-type': 'application/json' };
    for (const [name, value] of Object.entries(headers))
      if (typeof value === 'string' && !HOP_HEADERS.has(name)) sent[name] = value;
    const upstream = await fetch(`${target.replace(/\/+$/, '')}${path === '/' ? '' : path}`, {
      method: 'POST',
      headers: sent,
      body: new Uint8Array(body),
    });
    // the node's own headers (gRPC statuses travel in them) minus what this proxy frames itself
    const kept: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name) && name !== 'content-encoding') kept[name] = value;
    });
    return {
      status: upstream.status,
      contentType: upstream.headers.get('content-type') ?? 'application/json',
      headers: kept,
      body: Buffer.from(await upstream.arrayBuffer()),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    state.hits++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = req.url ?? '/';
    const prefixed = ENDPOINT_PREFIX.exec(url);
    const endpoint = prefixed ? (prefixed[1] as string) : 'default';
    const path = prefixed ? (prefixed[2] ?? '/') : url;
    const grpc = grpcWebFormatOf(req.headers['content-type']);
    const described =
      grpc === undefined
        ? describeJsonCall(path, body.toString('utf8'))
        : { method: path, params: grpcRequest(path, body, grpc), id: undefined };
    const call: ProxyCall = { endpoint, path, method: described.method, params: described.params };
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
      case 'grpc-status':
        return send(
          200,
          req.headers['content-type'] ?? 'application/grpc-web+proto',
          '',
          grpcStatusHeaders(fault.code, fault.message ?? ''),
        );
      case 'rpc-error':
        return send(200, 'application/json', rpcErrorBody(described.id, fault.code, fault.message));
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
    if (fault?.kind === 'rewrite' && grpc !== undefined) {
      const rewritten = rewriteGrpc(path, answer.body, grpc, (message) => fault.body(message, call));
      return send(answer.status, answer.contentType, rewritten, answer.headers);
    }
    if (fault?.kind === 'rewrite') {
      const parsed = JSON.parse(answer.body.toString('utf8')) as unknown;
      return send(answer.status, 'application/json', JSON.stringify(fault.body(parsed, call)));
    }
    if (fault?.kind === 'result')
      return send(answer.status, 'application/json', replaceResult(answer.body, fault.result, call));
    return send(answer.status, answer.contentType, answer.body, answer.headers);
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
      rules.remove('hold');
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
