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

/** One call of a JSON-RPC batch. */
export interface BatchCall {
  method: string;
  params: unknown[];
}

/**
 * A JSON-RPC 2.0 batch (one HTTP request carrying `calls`) to one URL, one try: the answers in the
 * order of `calls`, matched by id (servers may answer in any order). Transport failures and
 * rate-limit answers throw TransientRpcError like `jsonRpcCall`; an error answer to any call throws
 * its JsonRpcError; a server that answers a batch with one object (no batch support) throws
 * JsonRpcError -32600.
 */
export async function jsonRpcBatchCall(
  url: string,
  calls: BatchCall[],
  signal: AbortSignal,
): Promise<unknown[]> {
  if (calls.length === 0) return [];
  const first = nextId;
  nextId += calls.length;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params })),
    ),
    signal,
  });
  throwIfTransientStatus(response);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TransientRpcError(`invalid JSON from RPC (HTTP ${response.status})`);
  }
  if (!Array.isArray(body)) {
    const error = (body as { error?: { code: number; message: string } }).error;
    if (error && (error.code === 429 || /rate limit|too many requests/i.test(error.message)))
      throw new TransientRpcError(`${error.code}: ${error.message}`);
    throw new JsonRpcError(-32600, `the RPC does not answer batches${error ? ` (${error.message})` : ''}`);
  }
  type Answer = { id: number; result?: unknown; error?: { code: number; message: string; data?: unknown } };
  const answers = new Map<number, Answer>();
  for (const item of body as Answer[]) answers.set(Number(item.id), item);
  return calls.map((c, i) => {
    const answer = answers.get(first + i);
    if (!answer) throw new TransientRpcError(`the RPC left ${c.method} out of a batch answer`);
    if (answer.error) {
      const { code, message, data } = answer.error;
      if (code === 429 || /rate limit|too many requests|exceeded.*capacity/i.test(message))
        throw new TransientRpcError(`${code}: ${message}`);
      throw new JsonRpcError(code, message, data);
    }
    return answer.result;
  });
}
