import { describe, expect, it } from 'vitest';
import { createEvmAdapter } from '../../src/chains/evm/adapter.ts';
import { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import type { Chain } from '../../src/domain/chains.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker } from '../../workers/main.ts';
import { startFaultProxy } from '../helpers/fault-proxy.ts';
import { collect, eventsOf } from '../helpers/fault-suite.ts';
import {
  logs,
  m,
  nextOrderNo,
  proxy,
  RPC_TIMEOUT_MS,
  status,
  untilStatus,
  useFaultyEvmWorld,
  w,
} from './faulty-rpc-world.ts';

/**
 * Issue 14's fault-injecting RPC suite on the EVM family: an endpoint that serves another chain id
 * (BSC's node configured as ETH's second URL) disables ETH with a clear log line and credits nothing.
 */
useFaultyEvmWorld();

describe('an EVM endpoint that serves another chain', () => {
  /** ETH reached through endpoint a of its proxy, then `second`: what the operator configured. */
  function ethWith(second: string) {
    const settings = { ...activeChain(w.h.rt.config, 'ETH'), rpc: [proxy('ETH').endpoint('a'), second] };
    return createEvmAdapter(settings, w.h.rt.logger.child({ chain: 'ETH' }), { timeoutMs: RPC_TIMEOUT_MS });
  }

  it('disables ETH with a clear log line when its second URL serves BSC, at start or when it fails over to it, and credits nothing from BSC as ETH', async () => {
    const bscNode = await startFaultProxy(w.devnet.get('BSC').url, { down: true });
    const health = new ChainHealth();
    const adapters = new Map<Chain, ChainAdapter>([
      ['ETH', ethWith(bscNode.url)],
      ['BSC', w.h.rt.adapters.get('BSC') as ChainAdapter],
    ]);
    const logged = logs.length;
    const worker = await startWorker(
      { ...w.h.rt, adapters: adapters as Map<Chain, ChainAdapter>, health: health },
      [chainJobs],
    );
    try {
      // the second URL is down at start: ETH runs on the first
      const early = await collect(w.h, m, {
        chain: 'ETH',
        symbol: 'USDC',
        amount: '1',
        orderId: `f-${nextOrderNo()}`,
      });
      await w.pay('ETH', 'USDC', early.address, 1_000_000n);
      await untilStatus('ETH', early.orderId, 'SUCCESS');
      // a collection in ETH; the customer pays the same amount of BNB to the same address on BSC
      const native = await collect(w.h, m, {
        chain: 'ETH',
        symbol: 'ETH',
        amount: '0.25',
        orderId: `f-${nextOrderNo()}`,
      });
      await w.pay('BSC', 'native', native.address, 250_000_000_000_000_000n);
      await bscNode.up();
      proxy('ETH').add({ endpoint: 'a', fault: { kind: 'status', status: 503 } }); // ETH fails over to BSC's node
      await expect.poll(() => health.get('ETH').state, { timeout: 10_000 }).toBe('disabled');
      const line = logs.slice(logged).find((l) => l.msg === 'chain disabled');
      expect(line).toMatchObject({ level: 50, chain: 'ETH' });
      expect(line?.reason).toMatch(
        /^ETH: the RPC http:\/\/127\.0\.0\.1:\d+\/ serves chain id 56, but 1 is configured; the chain is disabled$/,
      );
      // BSC goes on; nothing BSC shows is taken for ETH
      const onBsc = await collect(w.h, m, {
        chain: 'BSC',
        symbol: 'USDT',
        amount: '1',
        orderId: `f-${nextOrderNo()}`,
      });
      await w.pay('BSC', 'USDT', onBsc.address, 1_000_000_000_000_000_000n);
      await untilStatus('BSC', onBsc.orderId, 'SUCCESS');
      expect(status(native.orderId)).toBe('INIT');
      expect(eventsOf(w.h, m, native.orderId)).toEqual([]);
    } finally {
      await worker.stop();
      await bscNode.close();
    }
    // configured like that from the start, the chain is refused at once
    const again = ethWith(w.devnet.get('BSC').url);
    await expect(again.connect()).rejects.toThrow(/serves chain id 56, but 1 is configured/);
  });
});
