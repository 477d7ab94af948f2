import { describe, expect, it } from 'vitest';
import type { Fault } from '../helpers/fault-proxy.ts';
import {
  available,
  collect,
  eventsOf,
  expectOneSuccess,
  orderOf,
  transfersOf,
  withChainJobs,
} from '../helpers/fault-suite.ts';
import { lagTron } from '../helpers/lagging-node.ts';
import {
  blockAt,
  logs,
  m,
  nextOrderNo,
  onReadsFrom,
  proxy,
  SOLID_LAG,
  status,
  untilStatus,
  useFaultyTronWorld,
  w,
} from './faulty-rpc-world.ts';

/**
 * Issue 14's fault-injecting RPC suite on TRON, collections: faults on the reads of blocks and a node
 * that lags behind, with the worker's real jobs where the timing matters. What is asserted is what a
 * merchant sees: orders' states, credited amounts, webhook events. The world: ./faulty-rpc-world.ts;
 * a node of another chain: rpc-faults-other-chain.test.ts; payouts: rpc-faults-payouts.test.ts.
 */
useFaultyTronWorld();

describe('TRON collections behind a faulty RPC', () => {
  it('credits every payment exactly once through each kind of fault, and recovers when it ends', async () => {
    // one after the other on the reads of the blocks the payments land in, on both endpoints unless one is named
    const faults: { fault: Fault; times: number; endpoint?: string }[] = [
      { fault: { kind: 'latency', ms: 150 }, times: 4 },
      { fault: { kind: 'hang' }, times: 1 },
      { fault: { kind: 'status', status: 429, retryAfterSeconds: 1 }, times: 1 },
      { fault: { kind: 'status', status: 502 }, times: 1, endpoint: 'a' },
      { fault: { kind: 'status', status: 502 }, times: 1, endpoint: 'b' },
      { fault: { kind: 'status', status: 503 }, times: 2 },
      { fault: { kind: 'truncate' }, times: 2 },
      { fault: { kind: 'malformed' }, times: 2 },
      { fault: { kind: 'reset' }, times: 2 },
    ];
    const rules = faults.map((f) => proxy.add(onReadsFrom(w.node.head() + 1, f.fault, f.times, f.endpoint)));
    const paid: { orderId: string; txids: string[] }[] = [];
    await withChainJobs(w.h, async () => {
      for (let i = 0; i < 6; i++) {
        const order = await collect(w.h, m, {
          chain: 'TRON',
          symbol: 'USDT',
          amount: '3.5',
          orderId: `f-${nextOrderNo()}`,
        });
        // in full, or in two parts in two blocks
        const txids = [await w.pay('USDT', order.address, i % 3 === 0 ? 3_500_000n : 1_500_000n)];
        if (i % 3 !== 0) txids.push(await w.pay('USDT', order.address, 2_000_000n));
        paid.push({ orderId: order.orderId, txids });
      }
      for (const p of paid) await untilStatus(p.orderId, 'SUCCESS');
    });
    expect(rules.map((r) => r.fired)).toEqual(
      faults.map((f) => (f.endpoint === undefined ? f.times : expect.any(Number))),
    );
    expect(rules.filter((_, i) => faults[i]?.endpoint).reduce((sum, r) => sum + r.fired, 0)).toBeGreaterThan(
      0,
    );
    for (const p of paid) {
      expect(orderOf(w.h, m, p.orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 3_500_000n });
      expectOneSuccess(eventsOf(w.h, m, p.orderId), p.orderId);
      for (const txid of p.txids) expect(transfersOf(w.h, 'TRON', txid)).toMatchObject([{ status: 'final' }]);
    }
    expect(await available(w.h, m, 'TRON', 'USDT')).toBe('1021.00');
  });
});

describe('TRON collections behind a node that lags behind', () => {
  it('waits on its checkpoint while the node is behind it, and credits the payment once the node catches up', async () => {
    const { orderId, address } = await collect(w.h, m, {
      chain: 'TRON',
      symbol: 'USDT',
      amount: '5',
      orderId: `f-${nextOrderNo()}`,
    });
    const logged = logs.length;
    const before = {
      height: w.node.head(),
      head: await blockAt('wallet'),
      solid: await blockAt('walletsolidity'),
    };
    const txid = await w.pay('USDT', address, 5_000_000n);
    await w.scan();
    w.mine(1);
    await w.scan();
    expect(status(orderId)).toBe('PENDING_CONFIRMATION');
    // the node falls back to a backend still at the block before the payment
    const lag = lagTron(proxy, { ...before, hidden: [txid] });
    w.mine(SOLID_LAG + 2);
    for (let i = 0; i < 3; i++) await w.scan().catch(() => undefined);
    expect(lag.fired).toBeGreaterThan(0);
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION']);
    lag.remove();
    await w.scan();
    expect(orderOf(w.h, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 5_000_000n });
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
    expect(transfersOf(w.h, 'TRON', txid)).toMatchObject([{ status: 'final' }]);
    expect(logs.slice(logged).filter((l) => /reorganisation|replaced a block/.test(l.msg))).toEqual([]);
  });

  it('never takes a block a lagging backend does not have for one that left the chain (a load balancer over backends out of step)', async () => {
    const { orderId, address } = await collect(w.h, m, {
      chain: 'TRON',
      symbol: 'USDT',
      amount: '6',
      orderId: `f-${nextOrderNo()}`,
    });
    const before = {
      height: w.node.head(),
      head: await blockAt('wallet'),
      solid: await blockAt('walletsolidity'),
    };
    const txid = await w.pay('USDT', address, 6_000_000n);
    await w.scan();
    w.mine(1);
    await w.scan();
    w.mine(SOLID_LAG); // the payment's block is solidified now
    // heads come from a current backend; blocks and transactions from one still before the payment
    const lag = lagTron(proxy, { ...before, hidden: [txid] }, { only: ['blocks', 'transactions'] });
    await w.scan().catch(() => undefined);
    expect(lag.fired).toBeGreaterThan(0);
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION']);
    lag.remove();
    w.mine(1);
    await w.scan();
    expect(orderOf(w.h, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 6_000_000n });
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
    expect(transfersOf(w.h, 'TRON', txid)).toMatchObject([{ status: 'final' }]);
  });
});
