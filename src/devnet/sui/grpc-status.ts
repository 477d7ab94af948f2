/** gRPC status codes (https://grpc.io/docs/guides/status-codes/) the fake answers with. */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/** An error a handler throws to answer with a non-OK `grpc-status`; the message becomes `grpc-message`. */
export class GrpcError extends Error {
  readonly code: GrpcCode;

  constructor(code: GrpcCode, message: string) {
    super(message);
    this.name = 'GrpcError';
    this.code = code;
  }
}

/** Prefix the real node puts before user-input errors found when checking a transaction's inputs. */
export const INPUT_ERROR_PREFIX =
  'Transaction execution failed due to issues with transaction inputs, please review the errors and try again: ';

/** An INVALID_ARGUMENT for a transaction whose inputs a validator would refuse to sign (nothing executed). */
export function inputError(detail: string): GrpcError {
  return new GrpcError(GrpcCode.INVALID_ARGUMENT, `${INPUT_ERROR_PREFIX}${detail}.`);
}
