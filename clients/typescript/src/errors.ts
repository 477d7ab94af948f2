/**
 * The statuses Kassa answers with (`code` of the envelope equals the HTTP status):
 * 400 validation, 401 signature/timestamp/nonce, 404 unknown order, 409 orderId reused with other
 * parameters, 413 body too large, 422 payout cannot be funded, 429 rate limited, 500 internal,
 * 503 chain or database busy.
 */
export type KassaErrorCode = 400 | 401 | 404 | 409 | 413 | 422 | 429 | 500 | 503 | (number & {});

/** Kassa refused the request: `code` and `msg` are exactly what the envelope said. */
export class KassaError extends Error {
  /** The envelope's `code` (the HTTP status). */
  readonly code: KassaErrorCode;
  /** The envelope's `msg`, word for word (the interface's messages, e.g. `ReceiveAddress error`). */
  readonly msg: string;
  /** The `X-Request-Id` Kassa logged the request under, for the operator. */
  readonly requestId: string | null;
  /** Seconds Kassa asked to wait (`Retry-After`), on 429 and 503. */
  readonly retryAfterSeconds: number | null;

  constructor(input: {
    code: number;
    msg: string;
    requestId?: string | null;
    retryAfterSeconds?: number | null;
  }) {
    super(`${input.code} ${input.msg}`);
    this.name = 'KassaError';
    this.code = input.code;
    this.msg = input.msg;
    this.requestId = input.requestId ?? null;
    this.retryAfterSeconds = input.retryAfterSeconds ?? null;
  }

  /** Whether the same request may succeed later unchanged (rate limit, busy, internal error). */
  get retryable(): boolean {
    return (
      this.code === 429 || this.code === 500 || this.code === 502 || this.code === 503 || this.code === 504
    );
  }
}

/** Kassa could not be reached, or did not answer in time, or answered something that is not its envelope. */
export class KassaNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KassaNetworkError';
  }
}

/** A webhook that is not provably from Kassa (bad or missing signature, stale timestamp, not JSON). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
