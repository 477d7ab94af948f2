import { KassaError, KassaNetworkError } from './errors.js';
import { hmac, hmacKey, toHex } from './hmac.js';
import type {
  Chain,
  CheckoutOrder,
  CollectionCreated,
  CreateCollectionInput,
  CreatePayoutInput,
  MerchantBalance,
  NotifyOrder,
  OrderStatus,
  PayoutCreated,
  SupportSymbol,
} from './types.js';

export interface KassaClientOptions {
  /** Kassa's external address, e.g. `https://pay.example.com` (no trailing `/v1`). */
  baseUrl: string;
  /** The merchant token printed once by `kassa merchant create`: the HMAC key of every request. */
  token: string;
  /**
   * The merchant id (`mch_…`). Sent as `X-Merchant-Id` so Kassa checks one signature instead of
   * looking for the merchant; recommended.
   */
  merchantId?: string;
  /** How many times a request that may succeed later is sent again (default 3). */
  retries?: number;
  /** First backoff delay in ms, doubled on each retry, with full jitter (default 250). */
  retryDelayMs?: number;
  /** The longest wait between attempts; a longer `Retry-After` is not waited for (default 30 000). */
  maxRetryDelayMs?: number;
  /** Time limit of one attempt in ms (default 10 000). */
  timeoutMs?: number;
  /** The fetch to use (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Unix milliseconds now (tests). */
  now?: () => number;
  /** Waits `ms` (tests). */
  sleep?: (ms: number) => Promise<void>;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call, between attempts too. */
  signal?: AbortSignal;
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/**
 * A Kassa merchant API client. Every POST is signed (`sign` = hex HMAC-SHA256 of the JSON text of
 * `data`, keyed by the token, with a fresh timestamp and nonce per attempt); every order query is
 * signed over the orderId. Answers that are not `code` 200 throw {@link KassaError} with Kassa's
 * `code` and `msg`. Network failures, timeouts, 429 (after `Retry-After`) and 5xx are retried:
 * order creation is idempotent on (merchant, orderId), and the client always sends an orderId, so a
 * retry after a lost answer returns the same order instead of making a second one.
 */
export class KassaClient {
  readonly #baseUrl: string;
  readonly #key: Promise<CryptoKey>;
  readonly #merchantId: string | undefined;
  readonly #retries: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: KassaClientOptions) {
    if (!options.baseUrl) throw new TypeError('KassaClient: baseUrl is required');
    if (!options.token) throw new TypeError('KassaClient: token is required');
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#key = hmacKey(options.token);
    this.#merchantId = options.merchantId;
    this.#retries = options.retries ?? 3;
    this.#retryDelayMs = options.retryDelayMs ?? 250;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Creates a collection: a fresh deposit address and the hosted checkout page's address. */
  createCollection(input: CreateCollectionInput, options?: CallOptions): Promise<CollectionCreated> {
    return this.#post('/v1/order/createCollection', withOrderId(input), options);
  }

  /** Queues a payout from the chain's hot wallet to `receiveAddress`. */
  createPayout(input: CreatePayoutInput, options?: CallOptions): Promise<PayoutCreated> {
    return this.#post('/v1/order/createPayout', withOrderId(input), options);
  }

  /** An order in full (collection or payout), as the webhooks carry it. */
  async getOrder(orderId: string, options?: CallOptions): Promise<NotifyOrder> {
    return this.#getSigned(`/v1/order/status/${encodeURIComponent(orderId)}`, orderId, {}, options);
  }

  /** What the checkout page shows for a collection. */
  getCheckout(orderId: string, options?: CallOptions): Promise<CheckoutOrder> {
    return this.#getSigned('/v1/order/pay', orderId, { orderId }, options);
  }

  /** Only the state of an order (light polling; prefer webhooks). */
  async getOrderStatus(orderId: string, options?: CallOptions): Promise<OrderStatus> {
    const r = await this.#getSigned<{ status: OrderStatus }>(
      '/v1/order/getOrderStatus',
      orderId,
      { orderId },
      options,
    );
    return r.status;
  }

  /** The merchant's balances per chain and token (available, frozen, total). */
  getBalance(
    filter: { chain?: Chain; symbol?: string } = {},
    options?: CallOptions,
  ): Promise<MerchantBalance[]> {
    return this.#post('/v1/merchant/getBalance', compact(filter), options);
  }

  /** The tokens Kassa accepts, optionally for one chain or symbol (public, not signed). */
  supportSymbols(
    filter: { chain?: Chain; symbol?: string } = {},
    options?: CallOptions,
  ): Promise<SupportSymbol[]> {
    return this.#send(
      'GET',
      `/v1/symbol/supportSymbols${query(compact(filter))}`,
      async () => undefined,
      options,
    );
  }

  async #post<T>(path: string, data: Record<string, unknown>, options?: CallOptions): Promise<T> {
    const text = JSON.stringify(data);
    const sign = toHex(await hmac(await this.#key, text));
    return this.#send<T>(
      'POST',
      path,
      async () =>
        `{"sign":"${sign}","timestamp":${Math.floor(this.#now() / 1000)},"nonce":${JSON.stringify(nonce())},"data":${text}}`,
      options,
    );
  }

  async #getSigned<T>(
    path: string,
    orderId: string,
    params: Record<string, string>,
    options?: CallOptions,
  ): Promise<T> {
    const sign = toHex(await hmac(await this.#key, orderId));
    return this.#send<T>('GET', `${path}${query({ ...params, sign })}`, async () => undefined, options);
  }

  /** One call with its retries; `body` is built anew for each attempt (fresh timestamp and nonce). */
  async #send<T>(
    method: 'GET' | 'POST',
    path: string,
    body: () => Promise<string | undefined>,
    options: CallOptions = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      let failure: KassaError | KassaNetworkError;
      try {
        return await this.#attempt<T>(method, path, await body(), options.signal);
      } catch (error) {
        if (!(error instanceof KassaError || error instanceof KassaNetworkError)) throw error;
        if (options.signal?.aborted) throw error;
        failure = error;
      }
      const retryable = failure instanceof KassaNetworkError || failure.retryable;
      if (!retryable || attempt >= this.#retries) throw failure;
      const asked = failure instanceof KassaError ? failure.retryAfterSeconds : null;
      const delay =
        asked !== null ? asked * 1000 : Math.random() * this.#retryDelayMs * 2 ** Math.min(attempt, 10);
      if (delay > this.#maxRetryDelayMs) throw failure;
      await this.#sleep(delay);
    }
  }

  async #attempt<T>(
    method: string,
    path: string,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#merchantId) headers['x-merchant-id'] = this.#merchantId;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await this.#fetch(`${this.#baseUrl}${path}`, {
        method,
        headers,
        body,
        redirect: 'error',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await res.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const why = timeout.aborted ? `no answer within ${this.#timeoutMs} ms` : describe(error);
      throw new KassaNetworkError(`${method} ${path}: ${why}`, { cause: error });
    }
    const envelope = parseEnvelope<T>(text);
    if (!envelope) {
      const err = new KassaNetworkError(`${method} ${path}: HTTP ${res.status} without Kassa's envelope`);
      if (res.status >= 500 || res.status === 429) throw err;
      throw new KassaError({ code: res.status, msg: text.slice(0, 200) || res.statusText });
    }
    if (envelope.code === 200) return envelope.data;
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new KassaError({
      code: envelope.code,
      msg: envelope.msg,
      requestId: res.headers.get('x-request-id'),
      retryAfterSeconds: Number.isFinite(retryAfter) && res.headers.has('retry-after') ? retryAfter : null,
    });
  }
}

function parseEnvelope<T>(text: string): Envelope<T> | null {
  try {
    const v = JSON.parse(text) as Envelope<T>;
    return v && typeof v === 'object' && typeof v.code === 'number' && typeof v.msg === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The input with an orderId: the caller's, or a new one so that retries stay idempotent. */
function withOrderId<T extends { orderId?: string }>(input: T): Record<string, unknown> {
  return compact({ ...input, orderId: input.orderId ?? `kc_${nonce()}` });
}

function compact(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function query(params: Record<string, unknown>): string {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return q ? `?${q}` : '';
}

function nonce(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
