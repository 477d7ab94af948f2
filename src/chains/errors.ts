/**
 * What can go wrong on a chain, as the services and the worker tell it apart. Every error an
 * adapter throws on purpose is a ChainError with one of these codes; anything else it lets through
 * (a bug, an SDK surprise) is a plain error and is treated as transient by the worker's jobs.
 *
 * - `wrong_network`: the RPC serves another network than configured (chain id, genesis, a token
 *   that does not exist there). The worker disables the chain.
 * - `payout_rejected`: the chain would refuse this payout for good as asked (the token reverts it,
 *   the recipient is not an address, the wallet does not hold the token). The payout fails with the
 *   message as its reason.
 * - `wallet_busy`: the hot wallet's coins are held by a payout in flight; try again later.
 * - `wallet_underfunded`: the hot wallet cannot pay this payout's fees right now; it waits for a
 *   top-up rather than burn what it has.
 * - `fee_above_cap`: the payout would cost more than the configured cap allows; not sent.
 * - `chain_moved`: the chain reorganised while a range was read; the step is read again.
 * - `missing_history`: the node lacks a block the request needs (pruned, or lagging behind).
 * - `node_error`: the node answered something unexpected or refused the request.
 * - `rpc_unavailable`: no endpoint answered (timeouts, refused connections, 429, 5xx).
 * - `wrong_key`: the signing key is not the hot wallet's; a configuration or derivation bug.
 * - `bad_request`: the caller asked what this chain cannot do (an EVM payout without a nonce).
 */
export type ChainErrorCode =
  | 'wrong_network'
  | 'payout_rejected'
  | 'wallet_busy'
  | 'wallet_underfunded'
  | 'fee_above_cap'
  | 'chain_moved'
  | 'missing_history'
  | 'node_error'
  | 'rpc_unavailable'
  | 'wrong_key'
  | 'bad_request';

/** An error of a chain adapter, with a code the callers branch on (see ChainErrorCode). */
export class ChainError extends Error {
  readonly code: ChainErrorCode;
  /** The node's HTTP status, when an answer carried one. */
  readonly status: number | undefined;

  constructor(code: ChainErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChainError';
    this.code = code;
    this.status = options.status;
  }
}

/** The ChainError with `code` behind `error` (an SDK such as viem may wrap it in its own), or null. */
export function chainErrorIn(error: unknown, code: ChainErrorCode): ChainError | null {
  let e: unknown = error;
  for (let depth = 0; e && depth < 8; depth++) {
    if (isChainError(e, code)) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** Whether `error` is a ChainError with `code`. */
export function isChainError(error: unknown, code: ChainErrorCode): error is ChainError {
  return error instanceof ChainError && error.code === code;
}
