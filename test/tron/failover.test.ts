import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TronAdapter } from '../../src/chains/tron/adapter.ts';
import { type FakeTronNode, startFakeTronNode } from '../../src/devnet/tron/index.ts';
import { body } from '../helpers/harness.ts';
import { tronGenesis, tronWorld, USDT } from '../helpers/tron-chain.ts';
import { other, tronAdapterOn } from '../helpers/tron-node.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON RPC fail-over', () => {
  it('fails over to the next URL when the first refuses connections', async () => {
    const a = await adapterFor({ rpc: ['http://127.0.0.1:9', node.url] });
    expect((await a.heads()).head).toBe(node.head());
    const stats = a.ctx.endpoints.statistics();
    expect(stats[0]?.errors).toBeGreaterThan(0);
    expect(stats[1]?.requests).toBeGreaterThan(0);
  });

  it('retries through 503, 429 and java-tron’s in-band "lack of computing resources"', async () => {
    const a = await adapterFor();
    node.fail({ mode: '503', count: 1, paths: ['getblock'] });
    node.fail({ mode: '429', count: 1, paths: ['getblock'] });
    node.fail({ mode: 'lack-of-resources', count: 1, paths: ['getblock'] });
    expect((await a.heads()).head).toBe(node.head());
    expect(a.ctx.endpoints.statistics()[0]?.errors).toBe(3);
  });

  it('times out a hanging node and fails over to the second URL', async () => {
    const second = node.url.replace('127.0.0.1', 'localhost');
    const a = await adapterFor({ rpc: [node.url, second], timeoutMs: 300 });
    node.fail({ mode: 'timeout', count: 1, paths: ['getblock'] });
    expect((await a.block(1))?.number).toBe(1);
    const stats = a.ctx.endpoints.statistics();
    expect(stats[0]).toMatchObject({ requests: 1, errors: 1 });
    expect(stats[1]).toMatchObject({ requests: 1, errors: 0 });
  });

  it('credits a collection and sends a payout end to end while the first RPC URL is down', async () => {
    const w = await tronWorld({ rpc: (url) => ['http://127.0.0.1:9', url], confirmations: 1 });
    try {
      const m = await w.h.merchant('V3');
      await w.h.fund(m, 'TRON', 'USDT', '1');
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: '3',
          symbol: 'USDT',
          chain: 'TRON',
          orderId: 'f-1',
        }),
      );
      await w.pay('USDT', r.data.address, 3_000_000n);
      await w.scan();
      w.h.clock.advance(600);
      const status = await body<{ status: string }>(
        await w.h.getSigned('/v1/order/status/{orderId}', m, 'f-1'),
      );
      expect(status.data.status).toBe('SUCCESS');
      const payout = await w.h.post('/v1/order/createPayout', m, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'f-2',
        receiveAddress: other,
      });
      expect(payout.status).toBe(200);
      const before = w.node.trc20Balance(USDT, other);
      await w.payouts();
      w.mine(1);
      await w.payouts();
      expect(w.node.trc20Balance(USDT, other) - before).toBe(1_000_000n);
      const stats = w.h.rt.adapters.get('TRON') as TronAdapter;
      expect(stats.ctx.endpoints.statistics()[0]?.errors).toBeGreaterThan(0);
    } finally {
      await w.close();
    }
  });
});
