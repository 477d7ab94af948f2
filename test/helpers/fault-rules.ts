/**
 * The rules of the fault-injecting proxy (fault-proxy.ts): which requests, and what goes wrong; and
 * the book of rules a proxy keeps, which picks the fault for each request.
 */

/** One request as the rules see it. */
export interface ProxyCall {
  /** The endpoint name ('default' for the bare URL). */
  endpoint: string;
  /** HTTP path after the endpoint prefix. */
  path: string;
  /** JSON-RPC method, or the path for other requests. */
  method: string;
  /**
   * JSON-RPC params, the decoded request message of a gRPC-Web call, or the parsed JSON body for
   * other requests (undefined when none of these).
   */
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
  /**
   * Forwarded; the whole JSON answer is replaced (REST nodes: a stale block, an empty lookup), or
   * for gRPC-Web the decoded response message (an answer that is a gRPC error passes unchanged).
   */
  | { kind: 'rewrite'; body: (upstream: unknown, call: ProxyCall) => unknown }
  /** Answered with a JSON-RPC error, without reaching the upstream. */
  | { kind: 'rpc-error'; code: number; message: string }
  /** Answered with a gRPC status (trailers-only, as a node does), without reaching the upstream. */
  | { kind: 'grpc-status'; code: number; message?: string };

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

/** The rules added to one proxy, in order: the first that applies to a request decides its fault. */
export interface RuleBook {
  add(rule: FaultRule): RuleHandle;
  /** The fault for this request (the rule that applies counts it as fired), or null to pass it on. */
  pick(call: ProxyCall): Fault | null;
  /** Takes out every rule, or only those whose fault is of this kind. */
  remove(kind?: Fault['kind']): void;
}

interface ActiveRule extends FaultRule {
  seen: number;
  fired: number;
  removed: boolean;
}

/** An empty rule book. */
export function createRuleBook(): RuleBook {
  const rules: ActiveRule[] = [];
  return {
    add(rule) {
      const active: ActiveRule = { ...rule, seen: 0, fired: 0, removed: false };
      rules.push(active);
      return {
        get fired() {
          return active.fired;
        },
        remove() {
          active.removed = true;
        },
      };
    },
    pick(call) {
      for (const rule of rules) {
        if (rule.removed) continue;
        if (rule.endpoint !== undefined && rule.endpoint !== call.endpoint) continue;
        if (!methodMatches(rule, call)) continue;
        if (rule.match && !rule.match(call)) continue;
        rule.seen++;
        if (rule.seen <= (rule.after ?? 0)) continue;
        if (rule.times !== undefined && rule.fired >= rule.times) continue;
        rule.fired++;
        return rule.fault;
      }
      return null;
    },
    remove(kind) {
      for (const r of rules) if (kind === undefined || r.fault.kind === kind) r.removed = true;
    },
  };
}

function methodMatches(rule: FaultRule, call: ProxyCall): boolean {
  if (rule.method === undefined) return true;
  if (rule.method instanceof RegExp) return rule.method.test(call.method);
  return call.method === rule.method || call.path.endsWith(rule.method);
}
