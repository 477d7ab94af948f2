import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, kassa, spawnKassa, waitForHttp } from './helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from './helpers/harness.ts';
import { envelope } from './helpers/signing.ts';

const dir = mkdtempSync(join(tmpdir(), 'kassa-cli-'));
const env = {
  KASSA_DB: join(dir, 'kassa.db'),
  KASSA_MASTER_KEY: TEST_MASTER_KEY,
  KASSA_MNEMONIC: TEST_MNEMONIC,
};
const children: ReturnType<typeof spawnKassa>[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('the kassa command', () => {
  it('refuses to serve a database that was never migrated', () => {
    const r = kassa(['api'], { ...env, KASSA_DB: join(dir, 'other.db') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('run `kassa migrate` first');
  });

  it('lists every configuration problem and exits 2', () => {
    const r = kassa(['start'], {
      PORT: 'x',
      KASSA_NETWORK: 'moon',
      KASSA_MNEMONIC: 'not words',
      KASSA_DB: join(dir, 'bad.db'),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PORT must be a port number');
    expect(r.stderr).toContain('network');
    expect(r.stderr).toContain('KASSA_MNEMONIC is not a valid BIP-39');
    expect(r.stderr).toContain('KASSA_MASTER_KEY or KASSA_MASTER_KEY_FILE is required');
    expect(r.stderr).not.toContain('not words');
  });

  let merchant: { merchantId: string; kind: string; token: string; webhookSecret: string };

  it('migrates, then creates a merchant and prints one JSON object with its secrets, once', () => {
    expect(kassa(['migrate'], env).code).toBe(0);
    const r = kassa(
      ['merchant', 'create', '--kind', 'V3', '--name', 'Shop', '--callback-url', 'https://shop.example/hook'],
      env,
    );
    expect(r.code).toBe(0);
    merchant = JSON.parse(r.stdout);
    expect(Object.keys(merchant).sort()).toEqual(['kind', 'merchantId', 'token', 'webhookSecret']);
    expect(merchant.token).toMatch(/^[0-9a-f]{64}$/);
    expect(r.stderr).not.toContain(merchant.token);
    const list = kassa(['merchant', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        merchantId: merchant.merchantId,
        name: 'Shop',
        callbackUrl: 'https://shop.example/hook',
        status: 'active',
      }),
    ]);
    expect(list.stdout).not.toContain(merchant.token);
  });

  it('adds a token that replaces the default of the same symbol', () => {
    const r = kassa(
      [
        'token',
        'add',
        '--chain',
        'ETH',
        '--symbol',
        'USDT',
        '--contract',
        '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        '--decimals',
        '18',
      ],
      env,
    );
    expect(r.code).toBe(0);
    const added = kassa(
      [
        'token',
        'add',
        '--chain',
        'POLYGON',
        '--symbol',
        'DAI',
        '--contract',
        '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
        '--decimals',
        '18',
      ],
      env,
    );
    expect(added.code).toBe(0);
    const list = JSON.parse(kassa(['token', 'list', '--json'], env).stdout) as {
      symbol: string;
      chain: string;
      decimals: number;
      contractAddress: string;
    }[];
    expect(list.filter((t) => t.chain === 'ETH' && t.symbol === 'USDT')).toEqual([
      {
        symbol: 'USDT',
        chain: 'ETH',
        contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        decimals: 18,
      },
    ]);
    expect(list).toContainEqual({
      symbol: 'DAI',
      chain: 'POLYGON',
      contractAddress: '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
      decimals: 18,
    });
    const bad = kassa(
      [
        'token',
        'add',
        '--chain',
        'TRON',
        '--symbol',
        'X',
        '--contract',
        '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        '--decimals',
        '6',
      ],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a TRON token address');
  });

  it('serves the API on a real socket with `kassa start`, including an added token', async () => {
    const port = await freePort();
    const child = spawnKassa(['start'], { ...env, PORT: String(port), KASSA_LOG_LEVEL: 'warn' });
    children.push(child);
    await waitForHttp(`http://127.0.0.1:${port}/v1/symbol/supportSymbols`);
    const symbols = (await (
      await fetch(`http://127.0.0.1:${port}/v1/symbol/supportSymbols?chain=POLYGON&symbol=DAI`)
    ).json()) as {
      data: unknown[];
    };
    expect(symbols.data).toHaveLength(1);
    const res = await fetch(`http://127.0.0.1:${port}/v1/order/createCollection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: envelope(merchant.token, {
        amount: '1.000000000000000001',
        symbol: 'DAI',
        chain: 'POLYGON',
        orderId: 'cli-1',
      }),
    });
    const created = (await res.json()) as { code: number; data: { address: string } };
    expect(created.code).toBe(200);
    expect(created.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });

  it('refuses a mnemonic other than the one the database was created with', () => {
    const r = kassa(['start'], {
      ...env,
      KASSA_MNEMONIC:
        'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not the mnemonic this database was created with');
  });
});

describe('kassa secrets generate', () => {
  it('writes a valid mnemonic and key readable by the owner only, prints only the paths, and never overwrites', async () => {
    const { readFileSync, statSync } = await import('node:fs');
    const { validateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const out = join(dir, 'secrets');
    const r = kassa(['secrets', 'generate', '--out', out], {});
    expect(r.code).toBe(0);
    const mnemonic = readFileSync(join(out, 'mnemonic'), 'utf8').trim();
    expect(mnemonic.split(' ')).toHaveLength(24);
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);
    expect(readFileSync(join(out, 'master.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(out, 'mnemonic')).mode & 0o077).toBe(0);
    expect(r.stdout).toContain(`KASSA_MNEMONIC_FILE=${join(out, 'mnemonic')}`);
    expect(r.stdout).not.toContain(mnemonic.split(' ')[0] as string);
    const again = kassa(['secrets', 'generate', '--out', out], {});
    expect(again.code).toBe(2);
    expect(readFileSync(join(out, 'mnemonic'), 'utf8').trim()).toBe(mnemonic);
  });
});
