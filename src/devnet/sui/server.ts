/**
 * The HTTP side of the fake node: gRPC-Web on `POST /<package>.<Service>/<Method>` (text and binary
 * formats, unary and server streaming), the `/_fake/*` controls, and nothing else.
 *
 * Errors are trailers-only responses (HTTP 200 with `grpc-status`/`grpc-message` headers), as
 * tonic-web sends them; a method the fake does not implement answers UNIMPLEMENTED (12).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FakeSuiChain } from './chain.ts';
import { type ControlTarget, handleControl } from './controls.ts';
import type { FailureInjector } from './failures.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import {
  contentTypeOf,
  dataFrame,
  encodeFrames,
  encodeGrpcMessage,
  formatOf,
  type GrpcWebFormat,
  readRequestMessage,
  trailerFrame,
} from './grpc-web.ts';
import { METHODS } from './proto.ts';
import type { ServiceImplementation } from './service.ts';

/** What the server serves. */
export interface ServerContext {
  chain: FakeSuiChain;
  failures: FailureInjector;
  controls: ControlTarget;
  services: ReadonlyMap<string, ServiceImplementation>;
  /** Called when a handler throws something that is not a GrpcError (answered as INTERNAL). */
  onInternalError?: (error: unknown) => void;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'grpc-status, grpc-message',
};

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new GrpcError(GrpcCode.RESOURCE_EXHAUSTED, 'request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendError(res: ServerResponse, format: GrpcWebFormat, error: GrpcError): void {
  if (res.headersSent) {
    res.end(encodeFrames([trailerFrame(error.code, error.message)], format));
    return;
  }
  res.writeHead(200, {
    ...CORS_HEADERS,
    'content-type': contentTypeOf(format),
    'grpc-status': String(error.code),
    'grpc-message': encodeGrpcMessage(error.message),
  });
  res.end();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Creates (does not start) the HTTP server; `streams` tracks open server streams so close() can end them. */
export function createFakeSuiServer(context: ServerContext): { server: Server; endStreams: () => void } {
  const openStreams = new Set<() => void>();

  const toGrpcError = (error: unknown): GrpcError => {
    if (error instanceof GrpcError) return error;
    context.onInternalError?.(error);
    return new GrpcError(GrpcCode.INTERNAL, error instanceof Error ? error.message : String(error));
  };

  async function handleGrpc(req: IncomingMessage, res: ServerResponse, path: string, format: GrpcWebFormat) {
    const body = await readBody(req);
    const plan = context.failures.plan(path);
    if (plan.delayMs > 0) await sleep(plan.delayMs);
    if (plan.errorBefore) return sendError(res, format, plan.errorBefore);

    const method = METHODS.get(path);
    const [, serviceName = '', methodName = ''] = path.split('/');
    const service = context.services.get(serviceName);
    const unary = service?.unary[methodName];
    const streaming = service?.streaming?.[methodName];
    if (!method || (!unary && !streaming))
      return sendError(res, format, new GrpcError(GrpcCode.UNIMPLEMENTED, ''));

    let request: object;
    try {
      request = method.I.fromBinary(readRequestMessage(body, format));
    } catch (error) {
      const e =
        error instanceof GrpcError
          ? error
          : new GrpcError(GrpcCode.INTERNAL, 'failed to decode Protobuf message');
      return sendError(res, format, e);
    }

    if (streaming) {
      res.writeHead(200, { ...CORS_HEADERS, 'content-type': contentTypeOf(format) });
      res.flushHeaders();
      let stop: () => void = () => undefined;
      const end = () => {
        stop();
        openStreams.delete(end);
        if (!res.writableEnded) res.end(encodeFrames([trailerFrame(GrpcCode.OK)], format));
      };
      try {
        stop = streaming(context.chain, request, (message) => {
          res.write(encodeFrames([dataFrame(method.O.toBinary(method.O.create(message)))], format));
        });
      } catch (error) {
        return sendError(res, format, toGrpcError(error));
      }
      openStreams.add(end);
      res.on('close', () => {
        stop();
        openStreams.delete(end);
      });
      return;
    }

    let response: object;
    try {
      response = await unary!(context.chain, request);
    } catch (error) {
      return sendError(res, format, toGrpcError(error));
    }
    if (plan.errorAfter) return sendError(res, format, plan.errorAfter);
    const bytes = method.O.toBinary(method.O.create(response));
    res.writeHead(200, { ...CORS_HEADERS, 'content-type': contentTypeOf(format) });
    res.end(encodeFrames([dataFrame(bytes), trailerFrame(GrpcCode.OK)], format));
  }

  async function handleControlRequest(req: IncomingMessage, res: ServerResponse, path: string) {
    const body = await readBody(req);
    const answer = await handleControl(context.controls, req.method ?? 'GET', path, body.toString('utf8'));
    res.writeHead(answer.status, { ...CORS_HEADERS, 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const done = (error: unknown) => {
      context.onInternalError?.(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS_HEADERS,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type, x-grpc-web, x-user-agent, grpc-timeout',
      });
      res.end();
      return;
    }
    if (path.startsWith('/_fake/')) {
      handleControlRequest(req, res, path).catch(done);
      return;
    }
    const format = formatOf(req.headers['content-type']);
    if (req.method !== 'POST' || !format) {
      const isMethod = METHODS.has(path);
      res.writeHead(isMethod ? 415 : 404, { 'content-type': 'text/plain' });
      res.end(
        isMethod
          ? 'gRPC-Web requests only (application/grpc-web-text or application/grpc-web+proto)'
          : 'not found',
      );
      return;
    }
    handleGrpc(req, res, path, format).catch((error) => sendError(res, format, toGrpcError(error)));
  });

  return {
    server,
    endStreams: () => {
      for (const end of [...openStreams]) end();
    },
  };
}
