import type { AppErrorCode } from '../domain/errors.ts';

/**
 * The one table from error codes to HTTP statuses and the messages merchants read (DESIGN.md section
 * 4). `detail: true`: the error's own detail is the message (exact texts clients match on).
 */
export const ERROR_TABLE: Record<AppErrorCode, { status: number; msg: string; detail?: true }> = {
  validation: { status: 400, msg: 'Bad request.', detail: true },
  invalid_signature: { status: 401, msg: 'Invalid signature.' },
  timestamp_window: { status: 401, msg: 'The timestamp is outside the accepted window.' },
  nonce_reused: { status: 401, msg: 'The nonce has already been used.' },
  order_not_found: { status: 404, msg: 'Order not found.' },
  not_found: { status: 404, msg: 'Not found.', detail: true },
  method_not_allowed: { status: 405, msg: 'Method not allowed.' },
  order_conflict: { status: 409, msg: 'The orderId already exists with different parameters.' },
  state_conflict: {
    status: 409,
    msg: 'The order changed while the request was being handled. Please retry.',
  },
  body_too_large: { status: 413, msg: 'The request body is too large.' },
  insufficient_balance: { status: 422, msg: 'Insufficient balance for this payout.' },
  insufficient_funds: { status: 422, msg: 'Insufficient funds.', detail: true },
  payout_refused: { status: 422, msg: 'The payout was refused.', detail: true },
  ledger_negative: { status: 500, msg: 'Internal error.' },
  rate_limited: { status: 429, msg: 'Too many requests. Please slow down.' },
  chain_unavailable: { status: 503, msg: 'The chain is not reachable right now. Please retry.' },
  busy: { status: 503, msg: 'The service is busy. Please retry.' },
  internal: { status: 500, msg: 'Internal error.' },
};
