import { SuiGrpcClient } from '@mysten/sui/grpc';
import { describe, expect, it } from 'vitest';
import { RetryAfter, TransientRpcError } from '../rpc/endpoints.ts';
import { EXECUTION_ERROR_KIND } from './execution.ts';
import { classify, isNotFound } from './grpc.ts';

const rpcError = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('classify', () => {
  const live = new AbortController().signal;

  it('makes unavailable, rate-limited, deadline and network failures transient (they fail over)', () => {
    for (const code of ['UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED', 'INTERNAL', 'UNKNOWN']) {
      expect(classify(rpcError(code), live)).toBeInstanceOf(TransientRpcError);
    }
    expect((classify(rpcError('RESOURCE_EXHAUSTED'), live) as TransientRpcError).status).toBe(429);
  });

  it('makes an answer that cannot be read (DATA_LOSS) transient, and keeps the wait an HTTP 429 asked for', () => {
    expect(classify(rpcError('DATA_LOSS'), live)).toBeInstanceOf(TransientRpcError);
    const limited = classify(Object.assign(rpcError('UNAVAILABLE'), { retryAfterMs: 3000 }), live);
    expect(limited).toBeInstanceOf(RetryAfter);
    expect((limited as RetryAfter).retryAfterMs).toBe(3000);
  });

  it('makes a call cut by our own deadline transient', () => {
    const timedOut = AbortSignal.abort();
    expect(classify(rpcError('CANCELLED'), timedOut)).toBeInstanceOf(TransientRpcError);
  });

  it('leaves answers about the request itself alone (NOT_FOUND, INVALID_ARGUMENT)', () => {
    const notFound = rpcError('NOT_FOUND');
    expect(classify(notFound, live)).toBe(notFound);
    expect(isNotFound(notFound)).toBe(true);
    const invalid = rpcError('INVALID_ARGUMENT');
    expect(classify(invalid, live)).toBe(invalid);
    expect(isNotFound(new Error('x'))).toBe(false);
  });
});

describe('ExecutionError kinds', () => {
  it('match the numbers of the SDK’s sui.rpc.v2 enum', () => {
    const client = new SuiGrpcClient({ network: 'localnet', baseUrl: 'http://127.0.0.1:9' });
    type Type = (typeof client.ledgerService.methods)[number]['O'];
    const field = (type: Type, name: string) => type.fields.find((f) => f.name === name)!;
    let type = client.transactionExecutionService.methods.find((m) => m.name === 'SimulateTransaction')!.O;
    for (const name of ['transaction', 'effects', 'status', 'error']) {
      const f = field(type, name);
      if (f.kind !== 'message') throw new Error(`${name} is not a message`);
      type = f.T();
    }
    const kind = field(type, 'kind');
    if (kind.kind !== 'enum') throw new Error('kind is not an enum');
    const names = kind.T()[1] as Record<string, number>;
    expect(EXECUTION_ERROR_KIND).toEqual({
      INSUFFICIENT_GAS: names.INSUFFICIENT_GAS,
      INSUFFICIENT_COIN_BALANCE: names.INSUFFICIENT_COIN_BALANCE,
    });
  });
});
