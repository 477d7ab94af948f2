/**
 * gRPC-Web framing (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-WEB.md): a body is a
 * sequence of frames `[flag: 1 byte][length: 4 bytes big-endian][payload]`, flag 0x00 for a message
 * and 0x80 for the trailers (an HTTP/1 header block). `application/grpc-web-text` base64-encodes the
 * frame stream (the SDK's default), `application/grpc-web+proto` sends it as bytes.
 */
import { GrpcCode, GrpcError } from './grpc-status.ts';

export type GrpcWebFormat = 'text' | 'binary';

const DATA_FLAG = 0x00;
const TRAILER_FLAG = 0x80;

/** The wire format named by a request's content type, or undefined when it is not gRPC-Web. */
export function formatOf(contentType: string | undefined): GrpcWebFormat | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  switch (type) {
    case 'application/grpc-web-text':
    case 'application/grpc-web-text+proto':
      return 'text';
    case 'application/grpc-web':
    case 'application/grpc-web+proto':
      return 'binary';
    default:
      return undefined;
  }
}

/** The response content type for a format (the one the request used). */
export function contentTypeOf(format: GrpcWebFormat): string {
  return format === 'text' ? 'application/grpc-web-text' : 'application/grpc-web+proto';
}

/** Splits a frame stream into frames; throws INTERNAL on a truncated stream. */
export function parseFrames(bytes: Uint8Array): { flag: number; payload: Uint8Array }[] {
  const frames: { flag: number; payload: Uint8Array }[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes.length - offset < 5) throw new GrpcError(GrpcCode.INTERNAL, 'truncated gRPC-Web frame header');
    const flag = bytes[offset]!;
    const length =
      ((bytes[offset + 1]! << 24) |
        (bytes[offset + 2]! << 16) |
        (bytes[offset + 3]! << 8) |
        bytes[offset + 4]!) >>>
      0;
    const start = offset + 5;
    if (bytes.length - start < length) throw new GrpcError(GrpcCode.INTERNAL, 'truncated gRPC-Web frame');
    frames.push({ flag, payload: bytes.subarray(start, start + length) });
    offset = start + length;
  }
  return frames;
}

/**
 * The request message of a unary or server-streaming call: the payload of the single data frame.
 * An empty body is an empty message. Throws INTERNAL when the body is not a valid frame stream.
 */
export function readRequestMessage(body: Uint8Array, format: GrpcWebFormat): Uint8Array {
  const bytes =
    format === 'text' ? new Uint8Array(Buffer.from(Buffer.from(body).toString('latin1'), 'base64')) : body;
  const data = parseFrames(bytes).filter((f) => f.flag === DATA_FLAG);
  if (data.length > 1) throw new GrpcError(GrpcCode.UNIMPLEMENTED, 'client streaming is not supported');
  return data[0]?.payload ?? new Uint8Array(0);
}

function frame(flag: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, payload.length, false);
  out.set(payload, 5);
  return out;
}

/** A data frame around one encoded message. */
export function dataFrame(message: Uint8Array): Uint8Array {
  return frame(DATA_FLAG, message);
}

/**
 * Percent-encodes a `grpc-message` value as the gRPC spec requires (bytes outside 0x20–0x7E and `%`),
 * which is also what tonic (the Sui node's gRPC server) sends.
 */
export function encodeGrpcMessage(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The trailer frame carrying the final status. */
export function trailerFrame(code: GrpcCode, message = ''): Uint8Array {
  const text = `grpc-status:${code}\r\ngrpc-message:${encodeGrpcMessage(message)}\r\n`;
  return frame(TRAILER_FLAG, new Uint8Array(Buffer.from(text, 'latin1')));
}

/** The bytes to put on the wire for some frames in a format (base64 text or raw bytes). */
export function encodeFrames(frames: Uint8Array[], format: GrpcWebFormat): Buffer {
  const raw = Buffer.concat(frames);
  return format === 'text' ? Buffer.from(raw.toString('base64'), 'latin1') : raw;
}
