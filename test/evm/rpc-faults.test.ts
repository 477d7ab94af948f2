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
import { lagEvm } from '../helpers/lagging-node.ts';
import {
  head,
  logs,
  m,
  nextOrderNo,
  onReadsFrom,
  proxy,
  status,
  untilStatus,
  useFaultyEvmWorld,
  w,
} from './faulty-rpc-world.ts';

/**
 * Issue 14's fault-injecting RPC suite on the EVM family, collections: latency, hung requests, 429
 * with Retry-After, 5xx, truncated and malformed answers, connection resets and a node that lags
 * behind, with the real worker jobs running where the timing matters. What is asserted is what a
 * merchant sees: orders' states, credited amounts, webhook events. The world: ./faulty-rpc-world.ts;
 * a node of another chain: rpc-faults-other-chain.test.ts; payouts: rpc-faults-payouts.test.ts.
 */
useFaultyEvmWorld();

describe('EVM collections behind a faulty RPC', () => {
  it('credits every payment exactly once through each kind of fault, and recovers when it ends', async () => {
    // one after the other on the reads of the blocks the payments land in (a rule acts once the
    // ones before it are used up), on both endpoints unless one is named
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
    const from = (await head('ETH')) + 1;
    const rules = faults.map((f) => proxy('ETH').add(onReadsFrom(from, f.fault, f.times, f.endpoint)));
    const paid: { orderId: string; symbol: 'USDT' | 'USDC'; txids: string[] }[] = [];
    await withChainJobs(w.h, async () => {
      for (let i = 0; i < 6; i++) {
        const symbol = i % 2 === 0 ? 'USDT' : 'USDC';
        const order = await collect(w.h, m, {
          chain: 'ETH',
          symbol,
          amount: '3.5',
          orderId: `f-${nextOrderNo()}`,
        });
        // in full, or in two parts (the second one in a later block)
        const txids = [await w.pay('ETH', symbol, order.address, i % 3 === 0 ? 3_500_000n : 1_500_000n)];
        if (i % 3 !== 0) txids.push(await w.pay('ETH', symbol, order.address, 2_000_000n));
        paid.push({ orderId: order.orderId, symbol, txids });
      }
      for (const p of paid) await untilStatus('ETH', p.orderId, 'SUCCESS');
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
      for (const txid of p.txids) expect(transfersOf(w.h, 'ETH', txid)).toMatchObject([{ status: 'final' }]);
    }
    expect(await available(w.h, m, 'ETH', 'USDC')).toBe('10.50');
    expect(await available(w.h, m, 'ETH', 'USDT')).toBe('1010.50');
  });

  it('keeps crediting BSC while the ETH node hangs or is down, and ETH catches up once it is back', async () => {
    await withChainJobs(w.h, async (health) => {
      const onEth = await collect(w.h, m, {
        chain: 'ETH',
        symbol: 'USDC',
        amount: '4',
        orderId: `f-${nextOrderNo()}`,
      });
      proxy('ETH').add({ fault: { kind: 'hang' } });
      await w.pay('ETH', 'USDC', onEth.address, 4_000_000n);
      for (let i = 0; i < 3; i++) {
        const onBsc = await collect(w.h, m, {
          chain: 'BSC',
          symbol: 'USDT',
          amount: '2',
          orderId: `f-${nextOrderNo()}`,
        });
        await w.pay('BSC', 'USDT', onBsc.address, 2_000_000_000_000_000_000n);
        await untilStatus('BSC', onBsc.orderId, 'SUCCESS');
        if (i === 1) {
          proxy('ETH').clear();
          await proxy('ETH').down(); // from hanging to refusing connections
        }
      }
      await w.mine('ETH', 3);
      await expect
        .poll(() => health.get('ETH').lastError, { timeout: 10_000 })
        .toMatch(/fetch failed|ECONNREFUSED/);
      expect(status(onEth.orderId)).toBe('INIT');
      await proxy('ETH').up();
      await untilStatus('ETH', onEth.orderId, 'SUCCESS');
      expectOneSuccess(eventsOf(w.h, m, onEth.orderId));
    });
  });
});

describe('EVM collections behind a node that lags behind', () => {
  it('waits on its checkpoint while the node is behind it, and credits the payment once the node catches up', async () => {
    const { orderId, address } = await collect(w.h, m, {
      chain: 'ETH',
      symbol: 'USDC',
      amount: '5',
      orderId: `f-${nextOrderNo()}`,
    });
    const logged = logs.length;
    const txid = await w.pay('ETH', 'USDC', address, 5_000_000n);
    const paidIn = await head('ETH');
    await w.scan('ETH');
    await w.mine('ETH', 1);
    await w.scan('ETH');
    expect(status(orderId)).toBe('PENDING_CONFIRMATION');
    // the node falls back to a backend that has not seen the payment's block yet
    const lag = lagEvm(proxy('ETH'), paidIn - 1);
    await w.mine('ETH', 3);
    for (let i = 0; i < 3; i++) await w.scan('ETH').catch(() => undefined);
    expect(lag.fired).toBeGreaterThan(0);
    expect(status(orderId)).toBe('PENDING_CONFIRMATION');
    lag.remove();
    await w.scan('ETH');
    expect(orderOf(w.h, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 5_000_000n });
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
    expect(transfersOf(w.h, 'ETH', txid)).toMatchObject([{ status: 'final' }]);
    // no reorganisation was found, and none was reported
    expect(logs.slice(logged).filter((l) => /reorganisation|replaced a block/.test(l.msg))).toEqual([]);
  });

  it('never takes a block a lagging backend does not have for one that left the chain (a load balancer over backends out of step)', async () => {
    const { orderId, address } = await collect(w.h, m, {
      chain: 'ETH',
      symbol: 'USDT',
      amount: '6',
      orderId: `f-${nextOrderNo()}`,
    });
    const txid = await w.pay('ETH', 'USDT', address, 6_000_000n);
    const paidIn = await head('ETH');
    await w.scan('ETH');
    await w.mine('ETH', 1);
    await w.scan('ETH');
    await w.mine('ETH', 2); // the payment is final now (3 confirmations)
    // the head comes from a current backend; blocks and transactions from one still below the payment
    const lag = lagEvm(proxy('ETH'), paidIn - 1, { only: ['blocks', 'transactions'] });
    await w.scan('ETH').catch(() => undefined);
    expect(lag.fired).toBeGreaterThan(0);
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION']);
    lag.remove();
    await w.mine('ETH', 1);
    await w.scan('ETH');
    expect(orderOf(w.h, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 6_000_000n });
    expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
    expect(transfersOf(w.h, 'ETH', txid)).toMatchObject([{ status: 'final' }]);
  });
});
