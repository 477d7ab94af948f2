/**
 * The shape of a gRPC service implementation: handlers by method name, each taking the decoded
 * request message and returning the response message (or, for server streaming, writing messages).
 */
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { FakeSuiChain } from './chain.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import { isDigest } from './hashing.ts';

/** A unary method. The request is the decoded message of the method's input type. */
// biome-ignore lint/suspicious/noExplicitAny: requests are typed per handler by the method descriptor
export type UnaryHandler = (chain: FakeSuiChain, request: any) => object | Promise<object>;

/** A server-streaming method: `send` writes one response message; the returned function stops it. */
export type StreamHandler = (
  chain: FakeSuiChain,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  request: any,
  send: (message: object) => void,
) => () => void;

/** A service's unary and streaming handlers by method name (`GetCheckpoint`). */
export interface ServiceImplementation {
  unary: Record<string, UnaryHandler>;
  streaming?: Record<string, StreamHandler>;
}

/** A required address field, normalised; INVALID_ARGUMENT when missing or malformed. */
export function requireAddress(value: string | undefined, field: string): string {
  if (!value) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `missing ${field}`);
  if (!/^(0x)?[0-9a-fA-F]{1,64}$/.test(value))
    throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid ${field}: ${value}`);
  return normalizeSuiAddress(value);
}

/** A required digest field; INVALID_ARGUMENT when missing or not 32 bytes of base58. */
export function requireDigest(value: string | undefined, field: string): string {
  if (!value) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `missing ${field}`);
  if (!isDigest(value)) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid ${field}: ${value}`);
  return value;
}

/** A page size: default when absent or zero, capped at the maximum. */
export function pageSize(requested: number | undefined, defaultSize: number, max: number): number {
  if (!requested) return defaultSize;
  return Math.min(requested, max);
}
