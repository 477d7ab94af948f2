/**
 * A lean gRPC-Web transport for `SuiGrpcClient` (its `transport` option): unary calls only, binary
 * format (`application/grpc-web+proto`), over node:http/https with keep-alive sockets.
 *
 * Why not the SDK's default `GrpcWebFetchTransport`: a checkpoint scan makes one GetCheckpoint call
 * per checkpoint, and the profile of a catch-up showed about half of the scanner's CPU inside
 * fetch (undici requests, web streams, transferable abort signals) rather than in the messages.
 * This transport sends the same bytes (one data frame) and reads the same answers: a trailers-only
 * error in the HTTP headers, or a data frame followed by a trailer frame. Failures carry a gRPC
 * code name in `code` like the SDK's RpcError (`UNAVAILABLE`, `NOT_FOUND`…); a network error is
 * `INTERNAL` and an aborted call `CANCELLED`, as the fetch transport reports them.
 */
import http from 'node:http';
import https from 'node:https';
import type { SuiGrpcClientOptions } from '@mysten/sui/grpc';

/** The transport type `SuiGrpcClient` accepts. */
export type RpcTransport = Extract<SuiGrpcClientOptions, { transport: unknown }>['transport'];
type MethodInfo = Parameters<RpcTransport['unary']>[0];
type RpcOptions = Parameters<RpcTransport['unary']>[2];

const CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** The gRPC code an HTTP status stands for when the answer carries none (gRPC's HTTP mapping). */
function codeOfHttpStatus(status: number): string {
  if (status === 400) return 'INTERNAL';
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'UNIMPLEMENTED';
  if (status === 429 || status === 502 || status === 503 || status === 504) return 'UNAVAILABLE';
  return 'UNKNOWN';
}

/**
 * A failed call: `code` is the gRPC status name, as on the SDK's RpcError; `retryAfterMs` what an
 * HTTP 429 or 503 asked to wait (Retry-After), when it said.
 */
export class GrpcCallError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly methodName: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'GrpcCallError';
  }
}

/** Milliseconds an HTTP Retry-After header in seconds asks for (at most a minute), or undefined. */
function retryAfterOf(headers: http.IncomingHttpHeaders): number | undefined {
  const value = headers['retry-after'];
  return typeof value === 'string' && /^\d+$/.test(value) ? Math.min(Number(value), 60) * 1000 : undefined;
}

function decodeMessage(text: string | undefined): string {
  if (!text) return '';
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Reads `grpc-status` / `grpc-message` from a trailer frame (an HTTP/1 header block). */
function parseTrailer(block: Buffer): { status?: string; message?: string } {
  const out: { status?: string; message?: string } = {};
  for (const line of block.toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'grpc-status') out.status = value;
    else if (key === 'grpc-message') out.message = decodeMessage(value);
  }
  return out;
}

/**
 * The outcome of one gRPC-Web answer: the message bytes, or an error with its gRPC code. Exported
 * for tests; `headers` are the HTTP response headers, `body` the whole response body.
 */
export function readAnswer(
  httpStatus: number,
  headers: http.IncomingHttpHeaders,
  body: Buffer,
): { message: Uint8Array } | { code: string; error: string; retryAfterMs?: number } {
  let status = typeof headers['grpc-status'] === 'string' ? headers['grpc-status'] : undefined;
  if (status === undefined && (httpStatus < 200 || httpStatus >= 300)) {
    // an HTTP error without a gRPC status is a proxy's or a load balancer's page, not frames
    const retryAfterMs = retryAfterOf(headers);
    return {
      code: codeOfHttpStatus(httpStatus),
      error: `HTTP ${httpStatus}`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  let text = decodeMessage(typeof headers['grpc-message'] === 'string' ? headers['grpc-message'] : undefined);
  let message: Uint8Array | undefined;
  let offset = 0;
  while (offset + 5 <= body.length) {
    const flag = body[offset] as number;
    const length = body.readUInt32BE(offset + 1);
    const payload = body.subarray(offset + 5, offset + 5 + length);
    if (payload.length < length) return { code: 'DATA_LOSS', error: 'truncated gRPC-Web frame' };
    offset += 5 + length;
    if (flag & 0x80) {
      const trailer = parseTrailer(payload);
      status = trailer.status ?? status;
      text = trailer.message ?? text;
    } else if (flag & 0x01) {
      return { code: 'INTERNAL', error: 'compressed gRPC-Web messages are not supported' };
    } else {
      message = payload;
    }
  }
  if (status !== undefined && status !== '0') {
    const code = CODE_NAMES[Number(status)] ?? 'UNKNOWN';
    return { code, error: text || code };
  }
  if (httpStatus < 200 || httpStatus >= 300) {
    return { code: codeOfHttpStatus(httpStatus), error: `HTTP ${httpStatus}` };
  }
  if (!message) return { code: 'DATA_LOSS', error: 'the answer holds no message' };
  return { message };
}

/** The unary call object the generated clients return (they and Kassa only read `response`). */
class Call {
  readonly requestHeaders = {};
  readonly headers: Promise<Record<string, string>>;
  readonly status: Promise<{ code: string; detail: string }>;
  readonly trailers: Promise<Record<string, string>>;

  constructor(
    readonly method: MethodInfo,
    readonly request: object,
    readonly response: Promise<object>,
  ) {
    this.headers = response.then(() => ({}));
    this.status = response.then(() => ({ code: 'OK', detail: '' }));
    this.trailers = this.headers;
    for (const p of [this.headers, this.status]) p.catch(() => undefined);
  }

  // biome-ignore lint/suspicious/noThenProperty: protobuf-ts's UnaryCall is awaitable; so is this one
  then<A, B>(
    onfulfilled?: ((value: object) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.response
      .then((response) => ({
        method: this.method,
        requestHeaders: this.requestHeaders,
        request: this.request,
        headers: {},
        response,
        status: { code: 'OK', detail: '' },
        trailers: {},
      }))
      .then(onfulfilled, onrejected);
  }
}

/** See the file comment. One instance per base URL; sockets are kept alive between calls. */
export class NodeGrpcWebTransport {
  private readonly agent: http.Agent;
  private readonly secure: boolean;
  private readonly target: { hostname: string; port: string; path: string; query: string };

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.secure = url.protocol === 'https:';
    this.agent = this.secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
    this.target = { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path, query: url.search };
  }

  mergeOptions(options?: Partial<RpcOptions>): RpcOptions {
    return { ...options } as RpcOptions;
  }

  unary(method: MethodInfo, input: object, options: RpcOptions): Call {
    const bytes = method.I.toBinary(input as never);
    const body = Buffer.allocUnsafe(5 + bytes.length);
    body[0] = 0;
    body.writeUInt32BE(bytes.length, 1);
    body.set(bytes, 5);
    const { hostname, port, path, query } = this.target;
    const signal = options.abort;
    const response = new Promise<object>((resolve, reject) => {
      const fail = (code: string, error: string, retryAfterMs?: number) =>
        reject(new GrpcCallError(error, code, method.name, retryAfterMs));
      const request = (this.secure ? https : http).request(
        {
          hostname,
          port,
          path: `${path}/${method.service.typeName}/${method.name}${query}`,
          method: 'POST',
          agent: this.agent,
          signal,
          headers: {
            'content-type': 'application/grpc-web+proto',
            accept: 'application/grpc-web+proto',
            'x-grpc-web': '1',
            'content-length': body.length,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => fail(signal?.aborted ? 'CANCELLED' : 'INTERNAL', error.message));
          res.on('end', () => {
            const answer = readAnswer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks));
            if ('code' in answer) return fail(answer.code, answer.error, answer.retryAfterMs);
            try {
              resolve(method.O.fromBinary(answer.message) as object);
            } catch (error) {
              fail('INTERNAL', `undecodable answer: ${(error as Error).message}`);
            }
          });
        },
      );
      request.on('error', (error) => fail(signal?.aborted ? 'CANCELLED' : 'INTERNAL', error.message));
      request.end(body);
    });
    return new Call(method, input, response);
  }

  serverStreaming(): never {
    throw new GrpcCallError('server streaming is not supported by this transport', 'UNIMPLEMENTED', '');
  }

  clientStreaming(): never {
    throw new GrpcCallError('client streaming is not supported by gRPC-Web', 'UNIMPLEMENTED', '');
  }

  duplex(): never {
    throw new GrpcCallError('duplex streaming is not supported by gRPC-Web', 'UNIMPLEMENTED', '');
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}
