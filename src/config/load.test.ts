import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeChain } from './active-chain.ts';
import { ConfigError } from './config-error.ts';
import { loadConfig, loadSecrets } from './load.ts';

describe('loadConfig', () => {
  it('starts from wrangler-free.config.ts: mainnet, port 180, 30-minute orders, BSC stablecoins with 18 decimals', async () => {
    const config = await loadConfig({ env: {} });
    expect(config.network).toBe('mainnet');
    expect(config.port).toBe(180);
    expect(config.orders.collectionTtlSeconds).toBe(1800);
    expect(config.chains.BSC.mainnet.tokens.find((t) => t.symbol === 'USDT')?.decimals).toBe(18);
    expect(config.chains.ETH.mainnet.tokens.find((t) => t.symbol === 'USDT')?.decimals).toBe(6);
    expect(config.rateLimits.createCollection).toEqual({ limit: 100, windowSeconds: 10 });
  });

  it('has the testnets of the issue: Sepolia, BSC testnet, Amoy, Fuji, Nile, Sui testnet', async () => {
    const config = await loadConfig({ env: { KASSA_NETWORK: 'testnet' } });
    expect(activeChain(config, 'ETH').chainId).toBe(11155111);
    expect(activeChain(config, 'BSC').chainId).toBe(97);
    expect(activeChain(config, 'POLYGON').chainId).toBe(80002);
    expect(activeChain(config, 'AVAX_C_CHAIN').chainId).toBe(43113);
    expect(activeChain(config, 'TRON').rpc[0]).toContain('nile');
    expect(activeChain(config, 'SUI').rpc[0]).toContain('testnet');
  });

  it('applies environment overrides over a --config file over the defaults', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-cfg-'));
    const file = join(dir, 'kassa.json');
    writeFileSync(
      file,
      JSON.stringify({ port: 9000, orders: { handlingFee: '0.50' }, chains: { ETH: { confirmations: 12 } } }),
    );
    const config = await loadConfig({
      file,
      env: {
        PORT: '9100',
        KASSA_DB: '/tmp/x.db',
        KASSA_BASE_URL: 'https://pay.example.com',
        KASSA_RPC_ETH: 'https://a.example/rpc, https://b.example/rpc',
        KASSA_CONFIRMATIONS_TRON: '25',
        KASSA_CONFIRMATIONS_ETH: 'finalized',
        KASSA_API_PROCESSES: '3',
      },
    });
    expect(config.api.processes).toBe(3);
    expect(config.port).toBe(9100);
    expect(config.db).toBe('/tmp/x.db');
    expect(config.baseUrl).toBe('https://pay.example.com');
    expect(config.orders.handlingFee).toBe('0.50');
    expect(config.orders.collectionTtlSeconds).toBe(1800);
    expect(activeChain(config, 'ETH').rpc).toEqual(['https://a.example/rpc', 'https://b.example/rpc']);
    expect(activeChain(config, 'ETH').confirmations).toBe('finalized');
    expect(activeChain(config, 'TRON').confirmations).toBe(25);
  });

  it('loads a TypeScript config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-cfg-'));
    const file = join(dir, 'kassa.config.ts');
    writeFileSync(
      file,
      'export default { logLevel: "warn", checkout: { frameAncestors: ["https://shop.example"] } };\n',
    );
    const config = await loadConfig({ file, env: {} });
    expect(config.logLevel).toBe('warn');
    expect(config.checkout.frameAncestors).toEqual(['https://shop.example']);
  });

  it('lists every problem at once instead of stopping at the first', async () => {
    const error = await loadConfig({
      env: {
        PORT: 'eighty',
        KASSA_NETWORK: 'devnet',
        KASSA_CONFIRMATIONS_SUI: 'soon',
        KASSA_BASE_URL: 'not a url',
        KASSA_API_PROCESSES: '0',
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT must be a port number');
    expect(problems).toContain('KASSA_CONFIRMATIONS_SUI');
    expect(problems).toContain('network');
    expect(problems).toContain('baseUrl');
    expect(problems).toContain('KASSA_API_PROCESSES must be a whole number from 1 to 64, got "0"');
  });
});

describe('loadSecrets', () => {
  it('reads the mnemonic and master key from the environment or from files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-sec-'));
    writeFileSync(join(dir, 'm'), 'test test test test test test test test test test test junk\n');
    const s = loadSecrets({ KASSA_MNEMONIC_FILE: join(dir, 'm'), KASSA_MASTER_KEY: 'ab'.repeat(32) });
    expect(s.mnemonic).toBe('test test test test test test test test test test test junk');
    expect(s.masterKey?.length).toBe(32);
  });

  it('rejects a bad mnemonic and a short key without printing either', () => {
    const secret = 'test test test test test test test test test test test test';
    let error: unknown;
    try {
      loadSecrets({ KASSA_MNEMONIC: secret, KASSA_MASTER_KEY: 'abcd' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).problems.join('\n');
    expect(text).toContain('KASSA_MNEMONIC is not a valid BIP-39');
    expect(text).toContain('KASSA_MASTER_KEY must be 64 hex');
    expect(text).not.toContain(secret);
  });

  it('says which secrets a command requires', () => {
    expect(() => loadSecrets({}, { mnemonic: true, masterKey: true })).toThrow(
      /KASSA_MNEMONIC or KASSA_MNEMONIC_FILE is required[\s\S]*KASSA_MASTER_KEY/,
    );
  });
});
