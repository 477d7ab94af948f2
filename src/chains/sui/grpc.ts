/**
 * The gRPC side of the SUI adapter: one `SuiGrpcClient` per configured URL (on the binary gRPC-Web
 * transport of transport.ts) behind the shared
 * fail-over (RpcEndpoints), the `sui.rpc.v2` message types derived from the SDK's own generated
 * clients (@mysten/sui 1.45 does not export them), and the read masks every call sends (the node
 * returns only what a mask asks for).
 */
import { SuiGrpcClient } from '@mysten/sui/grpc';
import type { Logger } from '../../lib/logger.ts';
import { type EndpointOptions, RetryAfter, RpcEndpoints, TransientRpcError } from '../rpc/endpoints.ts';
import { NodeGrpcWebTransport, type RpcTransport } from './transport.ts';

type Ledger = SuiGrpcClient['ledgerService'];
type State = SuiGrpcClient['stateService'];
type Execution = SuiGrpcClient['transactionExecutionService'];
type ResponseOf<F> = F extends (...args: never[]) => { response: Promise<infer R> } ? R : never;

export type Checkpoint = NonNullable<ResponseOf<Ledger['getCheckpoint']>['checkpoint']>;
export type ExecutedTransaction = Checkpoint['transactions'][number];
export type ExecutionStatus = NonNullable<NonNullable<ExecutedTransaction['effects']>['status']>;
export type OwnedObject = ResponseOf<State['listOwnedObjects']>['objects'][number];
export type SimulateResponse = ResponseOf<Execution['simulateTransaction']>;
/** Per-call options the generated clients take; `abort` carries the endpoint's timeout. */
export type CallOptions = NonNullable<Parameters<Ledger['getServiceInfo']>[1]>;

/** Read masks (snake_case field paths) of the calls the adapter makes. */
export const MASKS = {
  checkpointRef: ['sequence_number', 'digest', 'summary.timestamp'],
  checkpointDeposits: [
    'sequence_number',
    'digest',
    'summary.timestamp',
    'transactions.digest',
    'transactions.transaction.sender',
    'transactions.effects.status',
    'transactions.balance_changes',
  ],
  transactionState: ['digest', 'checkpoint', 'effects.status'],
  coin: ['object_id', 'version', 'digest', 'balance'],
  objectVersion: ['object_id', 'version'],
  simulate: ['transaction.digest', 'transaction.effects.status', 'transaction.effects.gas_used'],
  execute: ['transaction.digest', 'transaction.effects.status'],
} as const;

/**
 * gRPC codes worth retrying on the same or another endpoint. DATA_LOSS is what an answer that is
 * not gRPC-Web at all reads as (a captive or CDN page served with 200): another endpoint may answer.
 */
const TRANSIENT_CODES = new Set([
  'UNAVAILABLE',
  'RESOURCE_EXHAUSTED',
  'DEADLINE_EXCEEDED',
  'ABORTED',
  'UNKNOWN',
  'INTERNAL',
  'CANCELLED',
  'DATA_LOSS',
]);

/** The gRPC status code name of an error from a generated client (`NOT_FOUND`), if it has one. */
export function grpcCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether the node answered that the thing asked for does not exist. */
export function isNotFound(error: unknown): boolean {
  return grpcCode(error) === 'NOT_FOUND';
}

/**
 * Turns a failed call into what RpcEndpoints understands: unavailable, rate-limited, timed out,
 * cancelled by our own deadline, or a network failure (the transport reports those as INTERNAL
 * "fetch failed", or UNKNOWN for a proxy's 502) become TransientRpcError (RetryAfter when the
 * answer said how long to wait); the rest is unchanged.
 */
export function classify(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return new TransientRpcError(`timeout: ${(error as Error)?.message ?? error}`);
  const code = grpcCode(error);
  if (code !== undefined && TRANSIENT_CODES.has(code)) {
    const message = `${code}: ${(error as Error).message}`;
    const status = code === 'RESOURCE_EXHAUSTED' ? 429 : 503;
    const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof retryAfterMs === 'number' && retryAfterMs > 0)
      return new RetryAfter(message, status, retryAfterMs);
    return new TransientRpcError(message, status);
  }
  return error;
}

/** The SUI RPC: every call runs against the current endpoint and fails over on transient errors. */
export class SuiRpc {
  readonly endpoints: RpcEndpoints;
  private readonly clients = new Map<string, SuiGrpcClient>();

  constructor(urls: string[], logger: Logger, options: EndpointOptions = {}) {
    this.endpoints = new RpcEndpoints(urls, logger, options);
  }

  /** The client of one URL (created once). */
  client(url: string): SuiGrpcClient {
    let client = this.clients.get(url);
    if (!client) {
      // the SDK's client on a lean binary gRPC-Web transport (transport.ts says why)
      const transport = new NodeGrpcWebTransport(url) as unknown as RpcTransport;
      client = new SuiGrpcClient({ network: 'kassa', transport });
      this.clients.set(url, client);
    }
    return client;
  }

  /** Runs `call` with fail-over; a non-transient error (NOT_FOUND, INVALID_ARGUMENT…) is thrown as is. */
  call<T>(call: (client: SuiGrpcClient, options: CallOptions) => Promise<T>): Promise<T> {
    return this.endpoints.request((url, signal) => this.runOn(url, signal, call));
  }

  /** Runs `call` pinned to one endpoint, then again on a second one when configured and `confirm` asks. */
  corroborate<T>(
    call: (client: SuiGrpcClient, options: CallOptions) => Promise<T>,
    confirm?: (first: T) => boolean,
  ) {
    return this.endpoints.corroborate((url, signal) => this.runOn(url, signal, call), confirm);
  }

  /** Runs `call` on one URL only, outside the fail-over; failures classified as `call` does. */
  async runOn<T>(
    url: string,
    signal: AbortSignal,
    call: (client: SuiGrpcClient, options: CallOptions) => Promise<T>,
  ): Promise<T> {
    try {
      return await call(this.client(url), { abort: signal });
    } catch (error) {
      throw classify(error, signal);
    }
  }
}
