/**
 * The one error type of Kassa. `code` says what went wrong; http/errors.ts alone decides the HTTP
 * status and the message a merchant reads. `detail` is for validation errors whose exact message is
 * part of the interface.
 */
export type AppErrorCode =
  | 'validation'
  | 'invalid_signature'
  | 'timestamp_window'
  | 'nonce_reused'
  | 'order_not_found'
  | 'order_conflict'
  | 'body_too_large'
  | 'insufficient_balance'
  | 'insufficient_funds'
  | 'payout_refused'
  | 'ledger_negative'
  | 'rate_limited'
  | 'not_found'
  | 'method_not_allowed'
  | 'state_conflict'
  | 'chain_unavailable'
  | 'busy'
  | 'internal';

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly detail: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: AppErrorCode,
    detail?: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    // A refusal (every code but `internal`) is an answer, not a bug: it is logged without a stack,
    // so none is captured. Capturing one was the largest cost of a request the failed-auth limit
    // refuses (bench/auth-flood.ts). An internal error keeps its stack (and its cause's).
    const stackLimit = Error.stackTraceLimit;
    if (code !== 'internal') Error.stackTraceLimit = 0;
    super(detail ?? code, { cause: options?.cause });
    Error.stackTraceLimit = stackLimit;
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** A 400 with one of the interface's exact validation messages. */
export function validationError(message: string): AppError {
  return new AppError('validation', message);
}

/** The exact validation messages of the interface and of DESIGN.md section 4. */
export const MESSAGES = {
  amountBlank: 'The amount cannot be left blank.',
  symbolBlank: 'The symbol cannot be left blank.',
  chainBlank: 'The chain cannot be left blank.',
  orderIdBlank: 'The orderId cannot be left blank.',
  uidBlank: 'The uid cannot be left blank.',
  uidZero: 'The uid cannot be zero.',
  receiveAddressBlank: 'The receiveAddress cannot be left blank.',
  receiveAddressError: 'ReceiveAddress error',
  amountInvalid: 'The amount must be a decimal string greater than zero.',
  amountPrecision: 'The amount has more decimal places than the token supports.',
  symbolUnsupported: 'The symbol is not supported on this chain.',
  chainUnsupported: 'The chain is not supported.',
  signBlank: 'The sign cannot be left blank.',
  timestampBlank: 'The timestamp cannot be left blank.',
  nonceBlank: 'The nonce cannot be left blank.',
  dataBlank: 'The data cannot be left blank.',
  bodyNotJson: 'The request body must be a JSON object.',
  bodyTooDeep: 'The request body is nested too deeply.',
  orderIdTooLong: 'The orderId must be at most 64 characters.',
  uidTooLong: 'The uid must be at most 64 characters.',
  payoutAboveLimit: 'The payout exceeds the limit for a single payout.',
  payoutAboveDailyLimit: 'The payout exceeds the daily limit.',
  receiveAddressNotAllowed: 'The receiveAddress is not on the allowlist.',
  waitingForApproval: 'Waiting for approval.',
} as const;

/** A 422 payout refusal whose message is part of the contract (limits, allowlist). */
export function payoutRefused(message: string): AppError {
  return new AppError('payout_refused', message);
}
