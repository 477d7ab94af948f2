import { type RpcEndpoints, TransientRpcError, throwIfTransientStatus } from './endpoints.ts';

/** A JSON-RPC error answer (not transport): the caller decides what it means. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

let nextId = 1;

/**
 * One JSON-RPC 2.0 call to one URL, one try: transport failures, 429/5xx, rate-limit answers and
 * unreadable bodies throw TransientRpcError (the caller's endpoints decide whether to fail over);
 * an error answer throws JsonRpcError.
 */
export async function jsonRpcCall<T = unknown>(
  url: string,
  method: string,
  params: unknown[],
  signal: AbortSignal,
): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal,
  });
  throwIfTransientStatus(response);
  const text = await response.text();
  let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new TransientRpcError(`invalid JSON from RPC (HTTP ${response.status})`);
  }
  if (body.error) {
    const { code, message, data } = body.error;
    if (code === 429 || /rate limit|too many requests|exceeded.*capacity/i.test(message)) {
      throw new TransientRpcError(`${code}: ${message}`);
    }
    throw new JsonRpcError(code, message, data);
  }
  return body.result as T;
}

/** JSON-RPC 2.0 over HTTP POST on top of fail-over endpoints. Rate-limit error codes count as transient. */
export function jsonRpcClient(endpoints: RpcEndpoints) {
  return async function call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return endpoints.request((url, signal) => jsonRpcCall<T>(url, method, params, signal));
  };
}
