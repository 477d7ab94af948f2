import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { nonPublicKind } from '../lib/ip-ranges.ts';
import { redactUrl } from '../lib/logger.ts';
import type { SignedWebhook } from './sign-webhook.ts';

/** Where a webhook may go. */
export interface TargetPolicy {
  /** Deliver to loopback, private, link-local and unspecified addresses too (config webhooks.allowPrivateTargets). */
  allowPrivateTargets: boolean;
  /** Name resolution (tests inject one); node's dns.lookup by default. */
  lookup?: LookupFunction;
}

/** The error code of a connection Kassa refused to make. */
const REFUSED_TARGET = 'EKASSA_PRIVATE_TARGET';

function refusedTarget(address: string): NodeJS.ErrnoException {
  const kind = nonPublicKind(address);
  return Object.assign(
    new Error(
      `the callback URL leads to ${address}, a ${kind} address; Kassa delivers there only with webhooks.allowPrivateTargets`,
    ),
    { code: REFUSED_TARGET },
  );
}

/**
 * A lookup that refuses a host any of whose addresses is not public, so a name that resolves (or
 * rebinds) to an internal address is never connected to, not even its public siblings.
 */
export function guardedLookup(resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const bad = list.find((a) => nonPublicKind(a.address) !== null);
      if (bad) return callback(refusedTarget(bad.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** What one HTTP attempt produced. `statusCode` is null when no answer came back. */
export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** Null on a 2xx; otherwise a short, secret-free reason (status and start of the answer, or the network error). */
  error: string | null;
}

/** Bytes of a non-2xx answer kept for the error text. */
const SNIPPET_BYTES = 300;
/** An answer longer than this is cut off (the socket is closed) rather than read to the end. */
const DRAIN_BYTES = 1 << 20;

/** Errors that mean a kept-alive socket was closed by the receiver just as it was reused. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * POSTs a signed webhook with node:http(s) and reports what happened; never throws. Redirects are
 * not followed (a 3xx is a failure like any non-2xx). `timeoutMs` bounds the whole exchange: connect,
 * send, answer; when it passes the socket is destroyed. A 2xx counts as soon as its status line
 * arrives; the rest of its body is drained in the background (same deadline) so the connection can
 * be reused. When a reused keep-alive connection turns out to be closed by the receiver (reset
 * before any answer: the receiver dropped it while idle), the request is sent once more on a new
 * connection within the same deadline, as Node's documentation advises for `reusedSocket`.
 */
export async function sendWebhook(
  url: string,
  signed: SignedWebhook,
  timeoutMs: number,
  policy: TargetPolicy = { allowPrivateTargets: false },
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    latencyMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done(null, 'the callback URL is not a valid URL');
  }
  const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
  if (!client) return done(null, `the callback URL must use http or https, not ${target.protocol}`);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivateTargets && isIP(host) !== 0 && nonPublicKind(host) !== null)
    return done(null, refusedTarget(host).message);
  const guard = policy.allowPrivateTargets
    ? null
    : guardedLookup(policy.lookup ?? (dnsLookup as LookupFunction));
  const lookup = guard ?? policy.lookup;
  let r = await exchange(client, target, signed, timeoutMs, timeoutMs, lookup, guard !== null);
  const left = timeoutMs - (performance.now() - started);
  if (r.staleSocket && left >= 1)
    r = await exchange(client, target, signed, left, timeoutMs, lookup, guard !== null);
  return done(r.statusCode, r.error);
}

function exchange(
  client: typeof http | typeof https,
  target: URL,
  signed: SignedWebhook,
  timeoutMs: number,
  /** The attempt's whole budget, for the error text. */
  budgetMs: number,
  lookup: LookupFunction | undefined,
  /** Check the address the socket actually connected to, and drop it before sending if not public. */
  publicOnly: boolean,
): Promise<{ statusCode: number | null; error: string | null; staleSocket: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null, staleSocket = false) => {
      if (settled) return;
      settled = true;
      resolve({ statusCode, error, staleSocket });
    };
    let req: http.ClientRequest;
    let status: number | null = null;
    const snippet: Buffer[] = [];
    let snippetBytes = 0;
    let location: string | undefined;
    const timer = setTimeout(() => {
      finish(status, status === null ? `no answer within ${budgetMs} ms` : describeStatus(status));
      req.destroy();
    }, timeoutMs);
    const describeStatus = (code: number) =>
      statusError(code, Buffer.concat(snippet).toString('utf8', 0, SNIPPET_BYTES), location);

    try {
      req = client.request(target, {
        method: 'POST',
        headers: { ...signed.headers, 'content-length': String(Buffer.byteLength(signed.body)) },
        ...(lookup ? { lookup } : {}),
      });
    } catch (e) {
      clearTimeout(timer);
      return finish(null, networkError(e));
    }
    if (publicOnly) {
      // Whatever resolved the name, the peer of the connection is what counts: no byte is written
      // before it is known to be a public address.
      const check = (socket: Socket) => {
        const peer = socket.remoteAddress;
        if (peer && nonPublicKind(peer) !== null) req.destroy(refusedTarget(peer));
      };
      req.on('socket', (socket: Socket) => {
        // First of the connect listeners: before buffered request bytes (or a TLS hello) go out.
        if (socket.connecting) socket.prependOnceListener('connect', () => check(socket));
        else check(socket);
      });
    }
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      location = res.headers.location;
      const ok = status >= 200 && status < 300;
      if (ok) finish(status, null);
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (!ok && snippetBytes < SNIPPET_BYTES) {
          snippet.push(chunk);
          snippetBytes += chunk.length;
          if (snippetBytes >= SNIPPET_BYTES) finish(status, describeStatus(status as number));
        }
        if (total > DRAIN_BYTES) res.destroy();
      });
      res.on('end', () => finish(status, ok ? null : describeStatus(status as number)));
      res.on('close', () => {
        clearTimeout(timer);
        finish(status, ok ? null : describeStatus(status as number));
      });
      res.on('error', () => {});
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      if (status !== null) return finish(status, describeStatus(status));
      const code = (e as NodeJS.ErrnoException).code ?? '';
      finish(null, networkError(e), req.reusedSocket && STALE_SOCKET_CODES.has(code));
    });
    req.end(signed.body);
  });
}

function statusError(code: number, body: string, location: string | undefined): string {
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  if (code >= 300 && code < 400) {
    const to = location
      ? ` to ${URL.canParse(location) ? redactUrl(location) : location.split('?')[0]?.slice(0, 100)}`
      : '';
    return `HTTP ${code}: redirect${to} not followed; set the final URL as the callback`;
  }
  return text ? `HTTP ${code}: ${text}` : `HTTP ${code}`;
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver',
};

function networkError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const code = err?.code;
  if (code === REFUSED_TARGET) return err.message;
  if (code && NETWORK_ERRORS[code]) return `${NETWORK_ERRORS[code]} (${code})`;
  const message = String(err?.message ?? e).slice(0, 200);
  return code ? `${code}: ${message}` : message;
}
