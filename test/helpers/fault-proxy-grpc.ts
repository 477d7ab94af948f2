import {
  dataFrame,
  encodeFrames,
  encodeGrpcMessage,
  formatOf,
  type GrpcWebFormat,
  parseFrames,
  readRequestMessage,
} from '../../src/devnet/sui/grpc-web.ts';
import { METHODS } from '../../src/devnet/sui/proto.ts';

/**
 * The gRPC-Web side of the fault proxy (fault-proxy.ts), for the Sui node: the `sui.rpc.v2` request
 * decoded for the rules, a rewritten answer re-encoded with the method's own response type, and a
 * gRPC status answered the way a node does (trailers only).
 */

/** The gRPC-Web format of a request with this content type (undefined: not gRPC-Web). */
export function grpcWebFormatOf(contentType: string | undefined): GrpcWebFormat | undefined {
  return formatOf(contentType);
}

/** The sui.rpc.v2 request message of a gRPC-Web call, decoded (undefined when unknown or unreadable). */
export function grpcRequest(path: string, body: Buffer, format: GrpcWebFormat): unknown {
  const method = METHODS.get(path);
  if (!method) return undefined;
  try {
    return method.I.fromBinary(readRequestMessage(body, format));
  } catch {
    return undefined;
  }
}

/**
 * A gRPC-Web answer with its message replaced by `change(decoded message)`, re-encoded with the
 * method's own response type; the trailer frame is kept. An answer without a message (a gRPC
 * error) is returned unchanged.
 */
export function rewriteGrpc(
  path: string,
  body: Buffer,
  format: GrpcWebFormat,
  change: (message: unknown) => unknown,
): Buffer {
  const method = METHODS.get(path);
  const raw = format === 'text' ? Buffer.from(body.toString('latin1'), 'base64') : body;
  const frames = parseFrames(raw);
  const data = frames.findIndex((f) => f.flag === 0x00);
  if (!method || data < 0) return body;
  const message = change(method.O.fromBinary((frames[data] as { payload: Uint8Array }).payload));
  const wire = frames.map((f, i) =>
    i === data
      ? dataFrame(method.O.toBinary(message as never))
      : Buffer.concat([Buffer.from([f.flag]), lengthOf(f.payload), f.payload]),
  );
  return encodeFrames(wire, format);
}

/** The headers of a trailers-only gRPC answer with this status. */
export function grpcStatusHeaders(code: number, message: string): Record<string, string> {
  return { 'grpc-status': String(code), 'grpc-message': encodeGrpcMessage(message) };
}

function lengthOf(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(payload.length);
  return out;
}
