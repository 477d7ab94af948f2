import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmAdapter } from '../../src/chains/evm/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { loadConfig } from '../../src/config/load.ts';
import { type EvmDevnet, startEvmDevnet } from '../../src/devnet/evm/devnet.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker } from '../../workers/main.ts';
import { devnetChainConfig } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { makeHarness } from '../helpers/harness.ts';

let devnet: EvmDevnet;
let proxy: FaultProxy;

beforeAll(async () => {
  devnet = await startEvmDevnet({ chains: ['ETH', 'BSC'] });
  proxy = await startFaultProxy(devnet.get('ETH').url);
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
});

async function adapterFor(rpc: string[], options: { timeoutMs?: number } = {}) {
  const config = await loadConfig({ env: {}, overrides: devnetChainConfig(devnet, { rpc: () => rpc }) });
  return createEvmAdapter(activeChain(config, 'ETH'), silentLogger(), options);
}

describe('RPC resilience', () => {
  it('fails over to the next URL when the first refuses connections', async () => {
    const adapter = await adapterFor(['http://127.0.0.1:9', devnet.get('ETH').url]);
    const heads = await adapter.heads();
    expect(heads.head).toBeGreaterThan(0);
    const stats = adapter.ctx.endpoints.statistics();
    expect(stats[0]?.errors).toBeGreaterThan(0);
    expect(stats[1]?.requests).toBeGreaterThan(0);
  });

  it('backs off and retries on 429 and 503 until the RPC answers', async () => {
    const adapter = await adapterFor([proxy.url]);
    proxy.add({ times: 2, fault: { kind: 'status', status: 429, retryAfterSeconds: 0 } });
    expect((await adapter.heads()).head).toBeGreaterThan(0);
    proxy.add({ times: 2, fault: { kind: 'status', status: 503 } });
    expect((await adapter.heads()).head).toBeGreaterThan(0);
    expect(adapter.ctx.endpoints.statistics()[0]?.errors).toBe(4);
  });

  it('times out a hanging RPC and fails over', async () => {
    const adapter = await adapterFor([proxy.url, devnet.get('ETH').url], { timeoutMs: 300 });
    proxy.add({ times: 1, fault: { kind: 'hang' } });
    expect((await adapter.heads()).head).toBeGreaterThan(0);
    expect(adapter.ctx.endpoints.statistics()[0]?.errors).toBe(1);
    proxy.clear();
  });
});

describe('the worker with one chain misconfigured and one down', () => {
  it('disables the mismatched chain, keeps retrying the unreachable one, and never stops the healthy one', async () => {
    const overrides = devnetChainConfig(devnet);
    const chains = overrides.chains as Record<string, { testnet: { rpc: string[]; chainId: number } }>;
    (chains.ETH as { testnet: { chainId: number } }).testnet.chainId = 5; // anvil says 1
    const h = await makeHarness(overrides, { clockStart: Date.now(), chains: true });
    const downCfg = await loadConfig({
      env: {},
      overrides: devnetChainConfig(devnet, { rpc: () => ['http://127.0.0.1:9'] }),
    });
    h.rt.adapters.set(
      'AVAX_C_CHAIN',
      createEvmAdapter({ ...activeChain(downCfg, 'BSC'), chain: 'AVAX_C_CHAIN' }, silentLogger(), {
        timeoutMs: 200,
      }),
    );
    const health = h.rt.health;
    const worker = await startWorker(h.rt, [chainJobs]);
    try {
      await expect.poll(() => health.get('BSC').state, { timeout: 10_000 }).toBe('ready');
      await expect.poll(() => health.get('BSC').scannedTo ?? -1, { timeout: 10_000 }).toBeGreaterThan(0);
      await expect.poll(() => health.get('ETH').state, { timeout: 10_000 }).toBe('disabled');
      expect(health.get('ETH').lastError).toContain('chain id 1');
      await expect.poll(() => health.get('AVAX_C_CHAIN').lastError ?? '', { timeout: 10_000 }).not.toBe('');
      expect(health.get('AVAX_C_CHAIN').state).toBe('connecting');
    } finally {
      await worker.stop();
      await h.close();
    }
  });
});
