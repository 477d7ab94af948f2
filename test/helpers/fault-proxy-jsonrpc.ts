import type { ProxyCall } from './fault-rules.ts';

/**
 * The JSON side of the fault proxy (fault-proxy.ts), for anvil's JSON-RPC and the TRON node's REST
 * API: what a request is called (its JSON-RPC method, or its path), and the answers the proxy makes
 * up or changes (a JSON-RPC error, a replaced result).
 */

/**
 * A request as the rules see it: a JSON-RPC call by its method, params and id; anything else by its
 * path, with its parsed JSON body (if any) as params.
 */
export function describeJsonCall(
  path: string,
  body: string,
): { method: string; params: unknown; id: unknown } {
  try {
    const parsed = JSON.parse(body) as { jsonrpc?: string; method?: string; params?: unknown; id?: unknown };
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && typeof parsed.method === 'string')
      return { method: parsed.method, params: parsed.params, id: parsed.id };
    return { method: path, params: parsed, id: undefined };
  } catch {
    return { method: path, params: undefined, id: undefined };
  }
}

/** A JSON-RPC error answer to the call with this id. */
export function rpcErrorBody(id: unknown, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
}

/**
 * The upstream's JSON-RPC answer with its result replaced: by `result`, or by what `result` makes of
 * the upstream's result when it is a function.
 */
export function replaceResult(body: Buffer, result: unknown, call: ProxyCall): string {
  const parsed = JSON.parse(body.toString('utf8')) as { result?: unknown };
  const replaced =
    typeof result === 'function'
      ? (result as (u: unknown, c: ProxyCall) => unknown)(parsed.result, call)
      : result;
  return JSON.stringify({ ...parsed, result: replaced });
}
