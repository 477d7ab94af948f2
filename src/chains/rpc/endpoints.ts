import { backoffDelay, sleep } from '../../lib/backoff.ts';
import { type Logger, redactUrl } from '../../lib/logger.ts';
import { ChainError } from '../errors.ts';

/**
 * An error worth retrying on the same or the next endpoint: timeouts, refused connections, 429, 5xx.
 * A ChainError `rpc_unavailable` once every attempt failed.
 */
export class TransientRpcError extends ChainError {
  constructor(message: string, status?: number) {
    super('rpc_unavailable', message, { status });
    this.name = 'TransientRpcError';
  }
}

/** Counters per endpoint, for /metrics and logs. URLs are redacted (they may carry API keys). */
export interface EndpointStats {
  url: string;
  requests: number;
  errors: number;
}

export interface EndpointOptions {
  /**
   * Proves that a URL serves the configured chain (its chain id, its genesis), run once per URL
   * before the URL's first request. It throws ChainMismatchError when the URL serves another chain,
   * which every request then rethrows: an endpoint is never used before it passed.
   */
  check?: (url: string, signal: AbortSignal) => Promise<void>;
  timeoutMs?: number;
  /** Attempts per request across all endpoints before giving up. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * The RPC URLs of one chain with fail-over: a request goes to the current endpoint; a transient
 * failure (timeout, network error, HTTP 429 or 5xx) moves to the next URL and backs off with jitter
 * (honouring Retry-After); other errors are the caller's to judge and are returned at once.
 */
export class RpcEndpoints {
  private current = 0;
  private readonly stats: EndpointStats[];
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly check: EndpointOptions['check'];
  private readonly checked = new Set<string>();

  constructor(
    readonly urls: string[],
    private readonly logger: Logger,
    options: EndpointOptions = {},
  ) {
    if (urls.length === 0) throw new ChainError('bad_request', 'An RPC needs at least one URL.');
    this.stats = urls.map((u) => ({ url: redactUrl(u), requests: 0, errors: 0 }));
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxAttempts = options.maxAttempts ?? Math.max(3, urls.length * 2);
    this.baseDelayMs = options.baseDelayMs ?? 200;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    this.check = options.check;
  }

  /**
   * Runs the `check` on every URL not checked yet that answers now (a URL that cannot be reached
   * is checked on its first use instead); throws the first non-transient failure, e.g. a
   * ChainMismatchError for a URL that serves another chain.
   */
  async checkAll(): Promise<void> {
    for (const [index, url] of this.urls.entries()) {
      if (!this.check || this.checked.has(url)) continue;
      const stat = this.stats[index] as EndpointStats;
      stat.requests++;
      try {
        await this.ensureChecked(url, AbortSignal.timeout(this.timeoutMs));
      } catch (error) {
        if (!isTransient(error)) throw error;
        stat.errors++;
        // as a failed request does: the next request goes to the next URL
        if (this.current === index && this.urls.length > 1) this.current = (index + 1) % this.urls.length;
      }
    }
  }

  private async ensureChecked(url: string, signal: AbortSignal): Promise<void> {
    if (!this.check || this.checked.has(url)) return;
    await this.check(url, signal);
    this.checked.add(url);
  }

  /** Request/error counts per endpoint (redacted URLs). */
  statistics(): EndpointStats[] {
    return this.stats.map((s) => ({ ...s }));
  }

  /**
   * Runs `call(url, signal)` against the endpoints: a TransientRpcError (or a timeout or network
   * failure) fails over and retries; anything else is rethrown unchanged.
   */
  async request<T>(call: (url: string, signal: AbortSignal) => Promise<T>): Promise<T> {
    return (await this.run(call, null)).value;
  }

  /**
   * Runs `call` (one unit, pinned to one endpoint while it runs) and, when another endpoint is
   * configured and `confirm(first answer)` asks for it, runs it again on a different one. For
   * decisions that must not rest on one node's view, such as "this transaction can never land": a
   * lagging backend or a load balancer's stale replica answers one of the two, not both. When the
   * second endpoint cannot answer, `unconfirmed` says why and the caller must not act on the first.
   */
  async corroborate<T>(
    call: (url: string, signal: AbortSignal) => Promise<T>,
    confirm: (first: T) => boolean = () => true,
  ): Promise<{ answers: T[]; unconfirmed: Error | null }> {
    const first = await this.run(call, null);
    if (this.urls.length < 2 || !confirm(first.value)) return { answers: [first.value], unconfirmed: null };
    try {
      const second = await this.run(call, first.url);
      return { answers: [first.value, second.value], unconfirmed: null };
    } catch (error) {
      if (!(error instanceof TransientRpcError)) throw error;
      return { answers: [first.value], unconfirmed: error };
    }
  }

  private async run<T>(
    call: (url: string, signal: AbortSignal) => Promise<T>,
    avoid: string | null,
  ): Promise<{ value: T; url: string }> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      let index = this.current;
      if (avoid !== null && this.urls[index] === avoid) index = (index + 1) % this.urls.length;
      const url = this.urls[index] as string;
      const stat = this.stats[index] as EndpointStats;
      stat.requests++;
      const signal = AbortSignal.timeout(this.timeoutMs);
      try {
        await this.ensureChecked(url, signal);
        return { value: await call(url, signal), url };
      } catch (error) {
        if (!isTransient(error)) throw error;
        stat.errors++;
        lastError = error;
        if (this.urls.length > 1) this.current = (index + 1) % this.urls.length;
        const retryAfterMs = error instanceof RetryAfter ? error.retryAfterMs : 0;
        const delay = Math.max(retryAfterMs, backoffDelay(attempt, this.baseDelayMs, this.maxDelayMs));
        this.logger.warn(
          { endpoint: stat.url, attempt: attempt + 1, delayMs: delay, error: (error as Error).message },
          'rpc request failed; retrying',
        );
        await sleep(delay);
      }
    }
    throw lastError instanceof Error ? lastError : new TransientRpcError('RPC unreachable');
  }
}

/** A transient error that says how long to wait (HTTP Retry-After). */
export class RetryAfter extends TransientRpcError {
  constructor(
    message: string,
    status: number,
    readonly retryAfterMs: number,
  ) {
    super(message, status);
  }
}

/** A timeout, a network failure, or a TransientRpcError: worth another try, here or on the next URL. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof TransientRpcError ||
    (error instanceof Error &&
      (error.name === 'TimeoutError' || error.name === 'AbortError' || isNetworkError(error)))
  );
}

function isNetworkError(error: Error): boolean {
  const code = (error.cause as { code?: string } | undefined)?.code ?? (error as { code?: string }).code;
  return (
    error.message === 'fetch failed' ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET'].includes(
      code ?? '',
    )
  );
}

/** Throws the transient error an HTTP status calls for (429, 5xx), if any. */
export function throwIfTransientStatus(response: Response): void {
  if (response.status === 429 || response.status >= 500) {
    const header = response.headers.get('retry-after');
    const seconds = header && /^\d+$/.test(header) ? Number(header) : 0;
    const message = `HTTP ${response.status}`;
    if (seconds > 0) throw new RetryAfter(message, response.status, Math.min(seconds, 60) * 1000);
    throw new TransientRpcError(message, response.status);
  }
}
