/** The rules of the fault-injecting proxy (fault-proxy.ts): which requests, and what goes wrong. */

/** One request as the rules see it. */
export interface ProxyCall {
  /** The endpoint name ('default' for the bare URL). */
  endpoint: string;
  /** HTTP path after the endpoint prefix. */
  path: string;
  /** JSON-RPC method, or the path for other requests. */
  method: string;
  /** JSON-RPC params, or the parsed JSON body for other requests (undefined when not JSON). */
  params: unknown;
}

export type Fault =
  /** Forwarded after a delay. */
  | { kind: 'latency'; ms: number }
  /** Answered with this HTTP status without reaching the upstream. */
  | { kind: 'status'; status: number; retryAfterSeconds?: number; body?: string }
  /** Forwarded; the answer is cut in the middle of its body (content-length promises more). */
  | { kind: 'truncate' }
  /** Answered 200 with a body that is not JSON, without reaching the upstream. */
  | { kind: 'malformed' }
  /** The connection is reset without an answer, the request never reaches the upstream. */
  | { kind: 'reset' }
  /** Never answered (the client's timeout must fire). */
  | { kind: 'hang' }
  /** Forwarded, so the upstream acts on it, then the connection is reset: the answer is lost. */
  | { kind: 'drop-response' }
  /** Held until `release()`: before forwarding (`request`) or after, with the answer withheld (`response`). */
  | { kind: 'hold'; phase?: 'request' | 'response' }
  /** Forwarded; the JSON-RPC result is replaced (a function gets the upstream's result). */
  | { kind: 'result'; result: unknown | ((upstream: unknown, call: ProxyCall) => unknown) }
  /** Forwarded; the whole JSON answer is replaced (REST nodes: a stale block, an empty lookup). */
  | { kind: 'rewrite'; body: (upstream: unknown, call: ProxyCall) => unknown }
  /** Answered with a JSON-RPC error, without reaching the upstream. */
  | { kind: 'rpc-error'; code: number; message: string };

export interface FaultRule {
  /** Only requests to this endpoint (default: every endpoint). */
  endpoint?: string;
  /** Only this JSON-RPC method or path suffix (a RegExp is tested against the method). */
  method?: string | RegExp;
  /** Any further condition. */
  match?: (call: ProxyCall) => boolean;
  /** Let this many matching requests through untouched first. */
  after?: number;
  /** Apply to this many matching requests, then stop (default: until removed). */
  times?: number;
  fault: Fault;
}

/** A rule once added: how often it fired, and a way to take it out. */
export interface RuleHandle {
  readonly fired: number;
  remove(): void;
}
