import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.ts';
import { describeChainError, isNodeUnreachable } from './describe-chain-error.ts';

/** Errors shaped as the SDKs throw them: viem wraps fetch's TypeError, whose cause carries the code. */
function wrapped(cause: Error, outer = 'An unknown RPC error occurred.'): Error {
  const fetchFailed = new TypeError('fetch failed', { cause });
  return Object.assign(new Error(outer, { cause: fetchFailed }), { name: 'UnknownRpcError', code: -1 });
}
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('one line per chain problem', async () => {
  const config = await loadConfig({
    env: {
      KASSA_RPC_ETH: 'https://eth.example/v2/0123456789abcdef0123456789abcdef',
      KASSA_RPC_TRON: 'http://127.0.0.1:8090,http://127.0.0.1:8091',
    },
  });

  it('says the node is unreachable, where (API key redacted) and why, from deep in the cause chain', () => {
    expect(
      describeChainError(config, 'ETH', wrapped(coded('connect ECONNREFUSED 1.2.3.4:443', 'ECONNREFUSED'))),
    ).toBe('ETH: node unreachable at https://eth.example/v2/*** (connection refused)');
    expect(describeChainError(config, 'TRON', coded('getaddrinfo ENOTFOUND x', 'ENOTFOUND'))).toBe(
      'TRON: node unreachable at http://127.0.0.1:8090/, http://127.0.0.1:8091/ (host name not found)',
    );
    expect(isNodeUnreachable(wrapped(coded('connect ECONNREFUSED', 'ECONNREFUSED')))).toBe(true);
  });

  it('tells a refused key, rate limiting and server errors apart', () => {
    const http = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
    expect(describeChainError(config, 'ETH', http(401))).toMatch(
      /^ETH: node at .* refused the request .*API key/,
    );
    expect(describeChainError(config, 'ETH', http(429))).toMatch(/rate limiting Kassa \(HTTP 429\)$/);
    expect(describeChainError(config, 'ETH', http(502))).toMatch(/answered HTTP 502$/);
    expect(isNodeUnreachable(http(502))).toBe(false);
  });

  it('keeps only the first line of other errors, with every URL in it redacted', () => {
    const error = new Error(
      'execution reverted: see https://user:pw@rpc.example/key/0123456789abcdef0123?token=x\nstack…',
    );
    const line = describeChainError(config, 'ETH', error);
    expect(line).toBe('ETH: execution reverted: see https://rpc.example/key/***?***');
    expect(line).not.toMatch(/pw|0123456789abcdef|token=x/);
  });

  it('explains that fetch refuses URLs with user:password, without printing them', () => {
    const error = wrapped(
      new TypeError(
        'Request cannot be constructed from a URL that includes credentials: https://u:secret@x/',
      ),
    );
    const line = describeChainError(config, 'ETH', error);
    expect(line).toMatch(/user:password, which fetch refuses/);
    expect(line).not.toContain('secret');
  });
});
