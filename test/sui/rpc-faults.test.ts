import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSuiAdapter, type SuiAdapter } from '../../src/chains/sui/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../src/devnet/sui/index.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { listTokens } from '../../src/services/resolve-token.ts';
import { scanChain } from '../../src/services/scan-chain/scan-chain.ts';
import { type Fault, type FaultProxy, type FaultRule, startFaultProxy } from '../helpers/fault-proxy.ts';
import {
  available,
  captureLogs,
  collect,
  eventsOf,
  expectOneSuccess,
  type LogLine,
  orderOf,
  payout,
  transfersOf,
  withChainJobs,
} from '../helpers/fault-suite.ts';
import { lagSui } from '../helpers/lagging-node.ts';
import { SUI, type SuiWorld, suiWorld, USDC } from '../helpers/sui-chain.ts';

/**
 * Issue 14's fault-injecting RPC suite on Sui: the fake Sui node's gRPC-Web behind the fault proxy,
 * reached through two endpoints of it, with the worker's real jobs where the timing matters. HTTP
 * faults (latency, hangs, 429 with Retry-After, 5xx, truncated and malformed bodies, resets) and
 * gRPC ones (UNAVAILABLE, RESOURCE_EXHAUSTED), a node that lags behind, and one of another chain.
 * What is asserted is what a merchant sees: orders' states, credited amounts, webhook events, the
 * receivers' balances on the node.
 */
let w: SuiWorld;
let proxy: FaultProxy;
let adapter: SuiAdapter;
let m: MerchantCreated;
let logs: LogLine[];
let n = 0;

const RPC_TIMEOUT_MS = 400;

/** A Sui adapter on the world's settings with other RPC URLs (a hung request fails after 400 ms). */
function adapterWith(rpc: string[]): SuiAdapter {
  return createSuiAdapter(
    { ...activeChain(w.h.rt.config, 'SUI'), rpc },
    w.h.rt.logger.child({ chain: 'SUI' }),
    {
      timeoutMs: RPC_TIMEOUT_MS,
    },
  );
}

beforeAll(async () => {
  w = await suiWorld();
  proxy = await startFaultProxy(w.node.url);
  logs = captureLogs(w.h);
  adapter = adapterWith([proxy.endpoint('a'), proxy.endpoint('b')]);
  w.h.rt.adapters.set('SUI', adapter);
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'SUI', 'USDC', '1000');
});
afterEach(async () => {
  proxy.clear();
  await proxy.up();
});
afterAll(async () => {
  await proxy?.close();
  await w?.close();
});

const status = (orderId: string) => orderOf(w.h, m, orderId).status;

/** One scan pass through `a` (what the worker's scan job does each tick). */
async function scan(a: SuiAdapter = adapter) {
  await a.connect();
  const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'SUI');
  return scanChain(w.h.rt, a, tokens, new AbortController().signal);
}

/** Seals a checkpoint every poll until the order reaches `wanted` (what time does on a live chain). */
async function untilStatus(orderId: string, wanted: string, timeout = 20_000) {
  await expect
    .poll(
      () => {
        w.seal();
        return status(orderId);
      },
      { timeout, interval: 100 },
    )
    .toBe(wanted);
}

const sequenceOf = (params: unknown) =>
  (params as { checkpointId?: { sequenceNumber?: bigint } } | undefined)?.checkpointId?.sequenceNumber ?? -1n;

/** A rule hitting the reads of checkpoints from `height` on (where the next payment lands). */
function onReadsFrom(height: bigint, fault: Fault, times: number, endpoint?: string): FaultRule {
  return {
    ...(endpoint ? { endpoint } : {}),
    method: 'GetCheckpoint',
    match: (c) => sequenceOf(c.params) >= height,
    times,
    fault,
  };
}

describe('Sui collections behind a faulty RPC', () => {
  it('credits every payment exactly once through each kind of fault, and recovers when it ends', async () => {
    // one after the other on the reads of the checkpoints the payments land in, on both endpoints unless one is named
    const faults: { fault: Fault; times: number; endpoint?: string }[] = [
      { fault: { kind: 'latency', ms: 150 }, times: 4 },
      { fault: { kind: 'hang' }, times: 1 },
      { fault: { kind: 'status', status: 429, retryAfterSeconds: 1 }, times: 1 },
      { fault: { kind: 'grpc-status', code: 8, message: 'rate limited' }, times: 1 }, // RESOURCE_EXHAUSTED
      { fault: { kind: 'status', status: 502 }, times: 1, endpoint: 'a' },
      { fault: { kind: 'status', status: 502 }, times: 1, endpoint: 'b' },
      { fault: { kind: 'grpc-status', code: 14, message: 'node busy' }, times: 2 }, // UNAVAILABLE
      { fault: { kind: 'status', status: 503 }, times: 2 },
      { fault: { kind: 'truncate' }, times: 2 },
      { fault: { kind: 'malformed' }, times: 2 },
      { fault: { kind: 'reset' }, times: 2 },
    ];
    const rules = faults.map((f) =>
      proxy.add(onReadsFrom(w.node.height() + 1n, f.fault, f.times, f.endpoint)),
    );
    const paid: { orderId: string; digests: string[] }[] = [];
    await withChainJobs(w.h, async () => {
      for (let i = 0; i < 6; i++) {
        const order = await collect(w.h, m, {
          chain: 'SUI',
          symbol: 'USDC',
          amount: '3.5',
          orderId: `f-${++n}`,
        });
        // in full, or in two parts in two checkpoints
        const digests = [await w.pay('USDC', order.address, i % 3 === 0 ? 3_500_000n : 1_500_000n)];
        if (i % 3 !== 0) digests.push(await w.pay('USDC', order.address, 2_000_000n));
        paid.push({ orderId: order.orderId, digests });
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
      for (const digest of p.digests)
        expect(transfersOf(w.h, 'SUI', digest)).toMatchObject([{ status: 'final' }]);
    }
    expect(await available(w.h, m, 'SUI', 'USDC')).toBe('1021.00');
  });

  it('leaves an endpoint that answers with something other than gRPC for the one that answers', async () => {
    const { orderId, address } = await collect(w.h, m, {
      chain: 'SUI',
      symbol: 'USDC',
      amount: '2',
      orderId: `f-${++n}`,
    });
    // a CDN or captive page in front of the first URL: 200 with a body that is not gRPC-Web, for good
    const garbage = proxy.add({ endpoint: 'garbage', fault: { kind: 'malformed' } });
    const behindGarbage = adapterWith([proxy.endpoint('garbage'), proxy.endpoint('good')]);
    await w.pay('USDC', address, 2_000_000n);
    await scan(behindGarbage);
    expect(garbage.fired).toBeGreaterThan(0);
    expect(orderOf(w.h, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 2_000_000n });
  });
});

describe('Sui collections behind a node that lags behind', () => {
  it('waits on its checkpoint while the node is behind it, and goes on crediting once it catches up', async () => {
    const logged = logs.length;
    const first = await collect(w.h, m, { chain: 'SUI', symbol: 'USDC', amount: '5', orderId: `f-${++n}` });
    const before = Number(w.node.height());
    const digest = await w.pay('USDC', first.address, 5_000_000n);
    await scan();
    expect(status(first.orderId)).toBe('SUCCESS');
    // the node falls back to a backend still before that payment
    const lag = lagSui(proxy, { height: before, hidden: [digest] });
    const second = await collect(w.h, m, { chain: 'SUI', symbol: 'USDC', amount: '6', orderId: `f-${++n}` });
    const later = await w.pay('USDC', second.address, 6_000_000n);
    for (let i = 0; i < 3; i++) await scan().catch(() => undefined);
    expect(lag.fired).toBeGreaterThan(0);
    expect(status(second.orderId)).toBe('INIT');
    lag.remove();
    await scan();
    expect(orderOf(w.h, m, second.orderId)).toMatchObject({
      status: 'SUCCESS',
      actualAmountBase: 6_000_000n,
    });
    for (const [orderId, d] of [
      [first.orderId, digest],
      [second.orderId, later],
    ] as const) {
      expect(eventsOf(w.h, m, orderId)).toEqual(['ORDER_SUCCESS']);
      expect(transfersOf(w.h, 'SUI', d)).toMatchObject([{ status: 'final' }]);
    }
    // nothing was taken for a reorganisation (Sui has none), so nothing was reported as one
    expect(logs.slice(logged).filter((l) => /reorganisation|replaced a block/.test(l.msg))).toEqual([]);
  });
});

describe('a Sui endpoint that serves another chain', () => {
  let other: FakeSuiNode;
  beforeAll(async () => {
    other = await startFakeSuiNode({ manualCheckpoints: true, seed: 'another network' });
  });
  afterAll(() => other?.close());

  it('disables SUI with a clear log line when a fail-over reaches a node of another chain, and credits nothing it shows', async () => {
    const otherNode = await startFaultProxy(other.url, { down: true });
    const logged = logs.length;
    const adapters = new Map([['SUI' as const, adapterWith([proxy.endpoint('a'), otherNode.url])]]);
    await withChainJobs(
      w.h,
      async (health) => {
        const early = await collect(w.h, m, {
          chain: 'SUI',
          symbol: 'USDC',
          amount: '1',
          orderId: `f-${++n}`,
        });
        await w.pay('USDC', early.address, 1_000_000n);
        await untilStatus(early.orderId, 'SUCCESS');
        // the customer pays this order in SUI on the other chain
        const order = await collect(w.h, m, {
          chain: 'SUI',
          symbol: 'SUI',
          amount: '2',
          orderId: `f-${++n}`,
        });
        await other.fundSui(order.address, 2n * SUI);
        other.checkpoint();
        await otherNode.up();
        proxy.add({ endpoint: 'a', fault: { kind: 'status', status: 503 } }); // the fail-over reaches the other node
        await expect.poll(() => health.get('SUI').state, { timeout: 10_000 }).toBe('disabled');
        const line = logs.slice(logged).find((l) => l.msg === 'chain disabled');
        expect(line).toMatchObject({ level: 50, chain: 'SUI' });
        expect(line?.reason).toBe(
          `SUI: the RPC ${otherNode.url}/ serves chain id ${other.chainId} (localnet), but the RPC URLs before it serve ${w.node.chainId}; the chain is disabled`,
        );
        w.seal();
        expect(status(order.orderId)).toBe('INIT');
        expect(eventsOf(w.h, m, order.orderId)).toEqual([]);
      },
      adapters,
    );
    await otherNode.close();
  });
});

describe('Sui payouts behind a faulty RPC', () => {
  const receiver = (i: number) => `0x${(0x70 + i).toString(16).repeat(32)}`;

  it('pays each payout exactly once whatever happens to ExecuteTransaction and the reads after it', async () => {
    // one after the other on the executions (then the lookups) of nine payouts sent together
    const execute = 'ExecuteTransaction';
    const rules: FaultRule[] = [
      { method: execute, times: 1, fault: { kind: 'latency', ms: 200 } },
      { method: execute, times: 1, fault: { kind: 'hang' } },
      { method: execute, times: 1, fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } },
      { method: execute, times: 2, fault: { kind: 'grpc-status', code: 14, message: 'node busy' } },
      { method: execute, times: 2, fault: { kind: 'truncate' } }, // executed; the answer is cut
      { method: execute, times: 2, fault: { kind: 'malformed' } },
      { method: execute, times: 2, fault: { kind: 'drop-response' } }, // executed; no answer
      { method: execute, times: 2, fault: { kind: 'reset' } },
      { method: 'GetTransaction', times: 4, fault: { kind: 'status', status: 503 } },
    ];
    const handles = rules.map((r) => proxy.add(r));
    const sent: { orderId: string; to: string; amount: bigint }[] = [];
    await withChainJobs(w.h, async () => {
      for (let i = 0; i < 9; i++) {
        const to = receiver(i);
        const orderId = await payout(w.h, m, {
          chain: 'SUI',
          symbol: 'USDC',
          amount: `1.${i + 1}`,
          orderId: `p-${++n}`,
          receiveAddress: to,
        });
        sent.push({ orderId, to, amount: USDC + BigInt(i + 1) * 100_000n });
      }
      for (const p of sent) await untilStatus(p.orderId, 'SUCCESS', 30_000);
    });
    expect(handles.map((h) => h.fired)).toEqual(rules.map((r) => r.times));
    w.seal();
    for (const p of sent) {
      expect(await w.balanceOf(p.to, w.node.usdcType), p.orderId).toBe(p.amount);
      expect(attemptsOfOrder(w.h.db, orderOf(w.h, m, p.orderId).id), p.orderId).toHaveLength(1);
      expectOneSuccess(eventsOf(w.h, m, p.orderId), p.orderId);
    }
  });
});
