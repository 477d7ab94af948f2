import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { type FakeTronNode, startFakeTronNode } from '../../src/devnet/tron/index.ts';
import type { Chain } from '../../src/domain/chains.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker } from '../../workers/main.ts';
import { startFaultProxy } from '../helpers/fault-proxy.ts';
import { collect, eventsOf } from '../helpers/fault-suite.ts';
import { CUSTOMER_KEY, tronGenesis, unsignedPayment } from '../helpers/tron-chain.ts';
import {
  adapterWith,
  blockAt,
  logs,
  m,
  nextOrderNo,
  proxy,
  SOLID_LAG,
  status,
  untilStatus,
  useFaultyTronWorld,
  w,
} from './faulty-rpc-world.ts';

/**
 * Issue 14's fault-injecting RPC suite on TRON: a node of another chain (another genesis) reached by
 * a fail-over, or configured from the start, disables TRON with a clear log line and credits nothing.
 */
useFaultyTronWorld();

describe('a TRON endpoint that serves another chain', () => {
  let other: FakeTronNode;
  beforeAll(async () => {
    // the same accounts and token, another genesis: another chain
    other = await startFakeTronNode({
      blockIntervalMs: 0,
      solidLag: SOLID_LAG,
      genesis: tronGenesis(),
      genesisTime: Math.floor(Date.now() / 3000) * 3000 - 3_600_000,
    });
  });
  afterAll(() => other?.close());

  it('disables TRON with a clear log line when a fail-over reaches a node of another chain, and credits nothing it shows', async () => {
    const otherNode = await startFaultProxy(other.url, { down: true });
    const health = new ChainHealth();
    const logged = logs.length;
    const adapters = new Map([['TRON' as const, adapterWith([proxy.endpoint('a'), otherNode.url])]]);
    const worker = await startWorker(
      { ...w.h.rt, adapters: adapters as Map<Chain, ChainAdapter>, health: health },
      [chainJobs],
    );
    try {
      const early = await collect(w.h, m, {
        chain: 'TRON',
        symbol: 'USDT',
        amount: '1',
        orderId: `f-${nextOrderNo()}`,
      });
      await w.pay('USDT', early.address, 1_000_000n);
      await untilStatus(early.orderId, 'SUCCESS');
      // the customer pays this order on the other chain (same address, same token contract)
      const order = await collect(w.h, m, {
        chain: 'TRON',
        symbol: 'USDT',
        amount: '2',
        orderId: `f-${nextOrderNo()}`,
      });
      const tronWeb = new TronWeb({ fullHost: other.url, privateKey: CUSTOMER_KEY });
      const unsigned = await unsignedPayment(
        tronWeb,
        'USDT',
        TronWeb.address.fromPrivateKey(CUSTOMER_KEY) as string,
        order.address,
        2_000_000n,
      );
      expect(
        (await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(unsigned, CUSTOMER_KEY))).result,
      ).toBe(true);
      other.mine(SOLID_LAG + 1);
      await otherNode.up();
      proxy.add({ endpoint: 'a', fault: { kind: 'status', status: 503 } }); // the fail-over reaches the other node
      await expect.poll(() => health.get('TRON').state, { timeout: 10_000 }).toBe('disabled');
      const line = logs.slice(logged).find((l) => l.msg === 'chain disabled');
      expect(line).toMatchObject({ level: 50, chain: 'TRON' });
      expect(line?.reason).toMatch(
        /^TRON: the RPC http:\/\/127\.0\.0\.1:\d+\/ serves another chain \(genesis [0-9a-f]{64}\) than the RPC URLs before it \(genesis [0-9a-f]{64}\); the chain is disabled$/,
      );
      w.mine(SOLID_LAG + 1);
      expect(status(order.orderId)).toBe('INIT');
      expect(eventsOf(w.h, m, order.orderId)).toEqual([]);
    } finally {
      await worker.stop();
      await otherNode.close();
    }
  });

  it('refuses at start a node whose genesis is not the configured chain id', async () => {
    const genesis = (await blockAt('wallet', 0)) as { blockID: string };
    const served = Number.parseInt(genesis.blockID.slice(-8), 16);
    const configured = (served % 0xffff_fff0) + 1; // any other chain id
    const adapter = adapterWith([proxy.url], { chainId: configured });
    await expect(adapter.connect()).rejects.toThrow(
      `TRON: the RPC ${proxy.url}/ serves chain id ${served} (genesis ${genesis.blockID}), but ${configured} is configured; the chain is disabled`,
    );
  });
});
