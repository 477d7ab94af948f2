import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvmAdapter } from '../../src/chains/evm/adapter.ts';
import { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import type { EvmDevnetChain } from '../../src/devnet/evm/devnet.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { Chain } from '../../src/domain/chains.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker } from '../../workers/main.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
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
import { lagEvm } from '../helpers/lagging-node.ts';

/**
 * Issue 14's fault-injecting RPC suite on the EVM family: anvil (ETH and BSC) behind the fault
 * proxy, ETH reached through two endpoints of it. Latency, hung requests, 429 with Retry-After, 5xx,
 * truncated and malformed answers, connection resets, a node that lags behind and one that serves
 * another chain id; with the real worker jobs running where the timing matters. What is asserted
 * is what a merchant sees: orders' states, credited amounts, webhook events, the receivers' token
 * balances on chain.
 */
let w: EvmWorld;
const proxies = new Map<EvmDevnetChain, FaultProxy>();
let m: MerchantCreated;
let logs: LogLine[];
let n = 0;

const RPC_TIMEOUT_MS = 400;

beforeAll(async () => {
  w = await evmWorld(['ETH', 'BSC'], {
    rpc: async (chain, url) => {
      const proxy = await startFaultProxy(url);
      proxies.set(chain, proxy);
      return chain === 'ETH' ? [proxy.endpoint('a'), proxy.endpoint('b')] : [proxy.url];
    },
  });
  logs = captureLogs(w.h);
  // the registry's adapters wait 10 s for an answer; a hung request here fails after 400 ms
  for (const chain of ['ETH', 'BSC'] as const)
    w.h.rt.adapters.set(
      chain,
      createEvmAdapter(activeChain(w.h.rt.config, chain), w.h.rt.logger.child({ chain }), {
        timeoutMs: RPC_TIMEOUT_MS,
      }),
    );
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'ETH', 'USDT', '1000');
});
afterEach(async () => {
  for (const p of proxies.values()) {
    p.clear();
    await p.up();
  }
});
afterAll(async () => {
  for (const p of proxies.values()) await p.close();
  await w?.close();
});

const proxy = (chain: EvmDevnetChain) => proxies.get(chain) as FaultProxy;
const head = async (chain: EvmDevnetChain) => Number(await w.devnet.get(chain).client.getBlockNumber());
const status = (orderId: string) => orderOf(w.h, m, orderId).status;

/** Mines a block on `chain` every poll until the order reaches `wanted` (what time does on a live chain). */
async function untilStatus(chain: EvmDevnetChain, orderId: string, wanted: string, timeout = 20_000) {
  await expect
    .poll(
      async () => {
        await w.mine(chain, 1);
        return status(orderId);
      },
      { timeout, interval: 100 },
    )
    .toBe(wanted);
}

/** Hex block numbers of an eth_getLogs or eth_getBlockByNumber request (null for other calls). */
function blockSpan(params: unknown): [number, number] | null {
  const first = (params as unknown[] | undefined)?.[0];
  const hex = (v: unknown) => (typeof v === 'string' && v.startsWith('0x') ? Number.parseInt(v, 16) : null);
  if (typeof first === 'string') {
    const at = hex(first);
    return at === null ? null : [at, at];
  }
  const range = first as { fromBlock?: unknown; toBlock?: unknown } | undefined;
  const from = hex(range?.fromBlock);
  const to = hex(range?.toBlock);
  return from === null || to === null ? null : [from, to];
}

/** A rule hitting the reads of blocks from `height` on (logs, blocks, receipts): where the next payment lands. */
function onReadsFrom(height: number, fault: Fault, times: number, endpoint?: string): FaultRule {
  return {
    ...(endpoint ? { endpoint } : {}),
    method: /^eth_(getLogs|getBlockByNumber)$/,
    match: (c) => (blockSpan(c.params)?.[1] ?? -1) >= height,
    times,
    fault,
  };
}

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
        const order = await collect(w.h, m, { chain: 'ETH', symbol, amount: '3.5', orderId: `f-${++n}` });
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
      const onEth = await collect(w.h, m, { chain: 'ETH', symbol: 'USDC', amount: '4', orderId: `f-${++n}` });
      proxy('ETH').add({ fault: { kind: 'hang' } });
      await w.pay('ETH', 'USDC', onEth.address, 4_000_000n);
      for (let i = 0; i < 3; i++) {
        const onBsc = await collect(w.h, m, {
          chain: 'BSC',
          symbol: 'USDT',
          amount: '2',
          orderId: `f-${++n}`,
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
      orderId: `f-${++n}`,
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
      orderId: `f-${++n}`,
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
      const early = await collect(w.h, m, { chain: 'ETH', symbol: 'USDC', amount: '1', orderId: `f-${++n}` });
      await w.pay('ETH', 'USDC', early.address, 1_000_000n);
      await untilStatus('ETH', early.orderId, 'SUCCESS');
      // a collection in ETH; the customer pays the same amount of BNB to the same address on BSC
      const native = await collect(w.h, m, {
        chain: 'ETH',
        symbol: 'ETH',
        amount: '0.25',
        orderId: `f-${++n}`,
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
      const onBsc = await collect(w.h, m, { chain: 'BSC', symbol: 'USDT', amount: '1', orderId: `f-${++n}` });
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

describe('EVM payouts behind a faulty RPC', () => {
  const receiver = (i: number) => `0x${(0x7000 + i).toString(16).padStart(40, '0')}` as Address;
  const received = (to: Address) => {
    const c = w.devnet.get('ETH');
    return tokenBalance(c.client, c.tokens.USDT.address, to);
  };

  it('pays each payout exactly once whatever happens to eth_sendRawTransaction and the reads after it', async () => {
    // one after the other on the broadcasts (then the receipts) of nine payouts sent together
    const broadcast = 'eth_sendRawTransaction';
    const rules: FaultRule[] = [
      { method: broadcast, times: 1, fault: { kind: 'latency', ms: 200 } },
      { method: broadcast, times: 1, fault: { kind: 'hang' } },
      { method: broadcast, times: 1, fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } },
      { method: broadcast, times: 2, fault: { kind: 'status', status: 503 } },
      { method: broadcast, times: 2, fault: { kind: 'truncate' } }, // the node took it; the answer is cut
      { method: broadcast, times: 2, fault: { kind: 'malformed' } },
      { method: broadcast, times: 2, fault: { kind: 'drop-response' } }, // the node took it; no answer
      { method: broadcast, times: 2, fault: { kind: 'reset' } },
      { method: 'eth_getTransactionReceipt', times: 4, fault: { kind: 'status', status: 503 } },
    ];
    const handles = rules.map((r) => proxy('ETH').add(r));
    const sent: { orderId: string; to: Address; amount: bigint }[] = [];
    await withChainJobs(w.h, async () => {
      for (let i = 0; i < 9; i++) {
        const to = receiver(i);
        const orderId = await payout(w.h, m, {
          chain: 'ETH',
          symbol: 'USDT',
          amount: `1.${i + 1}`,
          orderId: `p-${++n}`,
          receiveAddress: to,
        });
        sent.push({ orderId, to, amount: 1_000_000n + BigInt(i + 1) * 100_000n });
      }
      for (const p of sent) await untilStatus('ETH', p.orderId, 'SUCCESS');
    });
    expect(handles.map((h) => h.fired)).toEqual(rules.map((r) => r.times));
    await w.mine('ETH', 2);
    for (const p of sent) {
      expect(await received(p.to), p.orderId).toBe(p.amount);
      expect(attemptsOfOrder(w.h.db, orderOf(w.h, m, p.orderId).id), p.orderId).toHaveLength(1);
      expectOneSuccess(eventsOf(w.h, m, p.orderId), p.orderId);
    }
  });
});
