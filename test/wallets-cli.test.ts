import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort, kassa } from './helpers/cli.ts';
import { TEST_MNEMONIC } from './helpers/harness.ts';

/**
 * `kassa wallets` when nodes cannot be reached, as an operator runs it: one line per chain that
 * says what is wrong and where, not dozens of JSON retry logs; those come back with --verbose.
 */
let env: Record<string, string>;
let port: number;

beforeAll(async () => {
  port = await freePort(); // nothing listens here: every connection is refused
  const dir = mkdtempSync(join(tmpdir(), 'kassa-wallets-'));
  env = {
    KASSA_DB: join(dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_LOG_LEVEL: '',
    KASSA_RPC_ETH: `http://127.0.0.1:${port}/v2/0123456789abcdef0123456789abcdef`,
    KASSA_RPC_TRON: `http://127.0.0.1:${port}`,
    KASSA_RPC_SUI: `http://127.0.0.1:${port}`,
    // The other chains off (no URL), so nothing reaches the public nodes of the defaults.
    KASSA_RPC_BSC: '',
    KASSA_RPC_POLYGON: '',
    KASSA_RPC_AVAX_C_CHAIN: '',
  };
  expect(kassa(['migrate'], env).code).toBe(0);
});

describe('kassa wallets with unreachable nodes', () => {
  it('prints each hot wallet, then one line per chain saying why it could not be read, and exits 1', () => {
    const r = kassa(['wallets'], env);
    expect(r.code).toBe(1);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['TRON', 'ETH', 'SUI']);
    expect(r.stderr.trim().split('\n').sort()).toEqual([
      `ETH: node unreachable at http://127.0.0.1:${port}/v2/*** (connection refused)`,
      `SUI: node unreachable at http://127.0.0.1:${port}/ (connection refused)`,
      `TRON: node unreachable at http://127.0.0.1:${port}/ (connection refused)`,
    ]);
    expect(r.stderr).not.toContain('0123456789abcdef');
  });

  it('shows the retry logs with --verbose', () => {
    const r = kassa(['wallets', '--verbose'], env);
    const logs = r.stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(logs.length).toBeGreaterThan(3);
    expect(logs.some((l) => JSON.parse(l).msg === 'rpc request failed; retrying')).toBe(true);
    expect(r.stderr).toContain(
      `ETH: node unreachable at http://127.0.0.1:${port}/v2/*** (connection refused)`,
    );
  });

  it('puts the problem beside each wallet in --json', () => {
    const r = kassa(['wallets', '--json'], env);
    const list = JSON.parse(r.stdout) as { chain: string; error?: string }[];
    expect(list.find((w) => w.chain === 'TRON')?.error).toBe(
      `TRON: node unreachable at http://127.0.0.1:${port}/ (connection refused)`,
    );
  });
});
