import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ChainError } from '../errors.ts';
import { type RpcEndpoints, TransientRpcError, throwIfTransientStatus } from '../rpc/endpoints.ts';

/**
 * The java-tron HTTP API over fail-over endpoints (chains.md A.1): POST JSON, HTTP 200 with the
 * error in the body, `{}` for not-found. Transport failures, 429/5xx and the node's own
 * "lack of computing resources" / busy answers are transient (retried, next URL); every other
 * in-band `Error` is raised as a TronNodeError for the caller to judge.
 */

/**
 * A java-tron answer that is an error but not a transient one (bad request, API disabled, lite
 * node): a ChainError `node_error` with the HTTP status (404: the node has no such API).
 */
export class TronNodeError extends ChainError {
  declare readonly status: number;
  constructor(message: string, status: number) {
    super('node_error', message, { status });
    this.name = 'TronNodeError';
  }
}

/** Node JSON: fields checked where they are read. */
// biome-ignore lint/suspicious/noExplicitAny: wire shapes are validated field by field by the readers
export type NodeJson = any;

/** Calls one API path on one URL. */
export type TronCall = (path: string, body?: Record<string, unknown>) => Promise<NodeJson>;

const TRANSIENT_ERROR = /lack of computing resources|SERVER_BUSY|too many requests|rate limit/i;
/** int64 literals that a JS number would round (16+ digits) become strings before JSON.parse. */
const BIG_INT_LITERAL = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;

/**
 * Parses java-tron JSON keeping every int64 exact: integers too long for a double arrive as
 * decimal strings (read them with `BigInt(String(x))`). Throws on malformed text.
 */
export function parseTronJson(text: string): NodeJson {
  return JSON.parse(text.replace(BIG_INT_LITERAL, '$1"$2"'));
}

export class TronHttp {
  constructor(readonly endpoints: RpcEndpoints) {}

  /** POSTs `body` to `path` (e.g. `/wallet/getnowblock`) with fail-over; returns the parsed JSON. */
  call(path: string, body: Record<string, unknown> = {}): Promise<NodeJson> {
    return this.endpoints.request((url, signal) => post(url, path, body, signal));
  }

  /**
   * Runs several calls against ONE endpoint (the whole function fails over and retries as a unit),
   * for answers that must come from the same node, e.g. "solid block time, then is the tx there".
   */
  pinned<T>(fn: (call: TronCall) => Promise<T>): Promise<T> {
    return this.endpoints.request((url, signal) => fn((path, body = {}) => post(url, path, body, signal)));
  }

  /** Like `pinned`, then again on a second endpoint when one is configured and `confirm` asks (RpcEndpoints.corroborate). */
  corroborate<T>(fn: (call: TronCall) => Promise<T>, confirm?: (first: T) => boolean) {
    return this.endpoints.corroborate(
      (url, signal) => fn((path, body = {}) => post(url, path, body, signal)),
      confirm,
    );
  }
}

/** Calls on one URL only, outside the fail-over (e.g. to check what chain that URL serves). */
export function callOn(url: string, signal: AbortSignal): TronCall {
  return (path, body = {}) => post(url, path, body, signal);
}

/*
 * node:http with keep-alive rather than fetch: a scan makes one request per block, and undici's
 * fetch costs several times more CPU per request (measured in bench/scan-tron.ts).
 */
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 32 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 32 }),
};

/** One POST; resolves with the status, headers and body text. Network errors and aborts reject. */
function rawPost(
  url: URL,
  payload: string,
  signal: AbortSignal,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: https ? agents.https : agents.http,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        signal,
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
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function post(
  base: string,
  path: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<NodeJson> {
  const response = await rawPost(new URL(`${base.replace(/\/+$/, '')}${path}`), JSON.stringify(body), signal);
  if (response.status === 429 || response.status >= 500) {
    const retryAfter = response.headers['retry-after'];
    throwIfTransientStatus(
      new Response(null, {
        status: response.status,
        headers: typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {},
      }),
    );
  }
  const text = response.text;
  let json: NodeJson;
  try {
    json = parseTronJson(text);
  } catch {
    if (response.status !== 200 || /lite fullnode|closed/i.test(text)) {
      throw new TronNodeError(`${path}: HTTP ${response.status} ${text.slice(0, 120)}`, response.status);
    }
    throw new TransientRpcError(`${path}: invalid JSON from the node`);
  }
  if (json !== null && typeof json === 'object' && !Array.isArray(json) && typeof json.Error === 'string') {
    if (TRANSIENT_ERROR.test(json.Error)) throw new TransientRpcError(`${path}: ${json.Error}`);
    throw new TronNodeError(`${path}: ${json.Error}`, response.status);
  }
  if (response.status !== 200) {
    throw new TronNodeError(`${path}: HTTP ${response.status}`, response.status);
  }
  return json;
}
