import { TronWeb } from 'tronweb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { createTronAdapter } from '../../src/chains/tron/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { type FakeTronNode, startFakeTronNode } from '../../src/devnet/tron/index.ts';
import type { Chain } from '../../src/domain/chains.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker } from '../../workers/main.ts';
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
import { lagTron } from '../helpers/lagging-node.ts';
import {
  CUSTOMER_KEY,
  type TronWorld,
  tronGenesis,
  tronWorld,
  USDT,
  unsignedPayment,
} from '../helpers/tron-chain.ts';

/**
 * Issue 14's fault-injecting RPC suite on TRON: the fake java-tron node behind the fault proxy
 * (REST paths), reached through two endpoints of it, with the worker's real jobs where the timing
 * matters. What is asserted is what a merchant sees: orders' states, credited amounts, webhook
 * events, the receivers' balances on the node.
 */
let w: TronWorld;
let proxy: FaultProxy;
let m: MerchantCreated;
let logs: LogLine[];
let n = 0;

const RPC_TIMEOUT_MS = 400;
/** Blocks between the head and the solidified block: a deposit is final four blocks after it landed. */
const SOLID_LAG = 4;

/** A TRON adapter on the world's settings with other RPC URLs (a hung request fails after 400 ms). */
function adapterWith(rpc: string[], settings: Record<string, unknown> = {}) {
  return createTronAdapter(
    { ...activeChain(w.h.rt.config, 'TRON'), rpc, ...settings },
    w.h.rt.logger.child({ chain: 'TRON' }),
    { timeoutMs: RPC_TIMEOUT_MS },
  );
}

beforeAll(async () => {
  w = await tronWorld({ solidLag: SOLID_LAG });
  proxy = await startFaultProxy(w.node.url);
  logs = captureLogs(w.h);
  w.h.rt.adapters.set('TRON', adapterWith([proxy.endpoint('a'), proxy.endpoint('b')]));
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'TRON', 'USDT', '1000');
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

/** Mines a block every poll until the order reaches `wanted` (what time does on a live chain). */
async function untilStatus(orderId: string, wanted: string, timeout = 20_000) {
  await expect
    .poll(
      () => {
        w.mine(1);
        return status(orderId);
      },
      { timeout, interval: 100 },
    )
    .toBe(wanted);
}

/** The highest block number a request reads (getblockbylimitnext, gettransactioninfobyblocknum, getblock by number). */
function reaches(params: unknown): number {
  const p = params as { endNum?: number; num?: number; id_or_num?: string } | undefined;
  if (p?.endNum !== undefined) return p.endNum - 1;
  return Number(p?.num ?? p?.id_or_num ?? -1);
}

/** A rule hitting the reads of blocks from `height` on (where the next payment lands). */
function onReadsFrom(height: number, fault: Fault, times: number, endpoint?: string): FaultRule {
  return {
    ...(endpoint ? { endpoint } : {}),
    method: /^\/wallet\/(getblockbylimitnext|gettransactioninfobyblocknum)$/,
    match: (c) => reaches(c.params) >= height,
    times,
    fault,
  };
}

/** A block as the fake node serves it to `getblock` with `detail: false`. */
async function blockAt(view: 'wallet' | 'walletsolidity', height?: number): Promise<unknown> {
  const res = await fetch(`${w.node.url}/${view}/getblock`, {
    method: 'POST',
    body: JSON.stringify(
      height === undefined ? { detail: false } : { id_or_num: String(height), detail: false },
    ),
  });
  return res.json();
}

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
          orderId: `f-${++n}`,
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
      orderId: `f-${++n}`,
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
      orderId: `f-${++n}`,
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
        orderId: `f-${++n}`,
      });
      await w.pay('USDT', early.address, 1_000_000n);
      await untilStatus(early.orderId, 'SUCCESS');
      // the customer pays this order on the other chain (same address, same token contract)
      const order = await collect(w.h, m, {
        chain: 'TRON',
        symbol: 'USDT',
        amount: '2',
        orderId: `f-${++n}`,
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

describe('TRON payouts behind a faulty RPC', () => {
  const receiver = (i: number) =>
    TronWeb.address.fromPrivateKey(`${(0x70 + i).toString(16)}`.repeat(32)) as string;

  it('pays each payout exactly once whatever happens to broadcasttransaction and the reads after it', async () => {
    // one after the other on the broadcasts (then the lookups) of nine payouts sent together
    const broadcast = '/wallet/broadcasttransaction';
    const rules: FaultRule[] = [
      { method: broadcast, times: 1, fault: { kind: 'latency', ms: 200 } },
      { method: broadcast, times: 1, fault: { kind: 'hang' } },
      { method: broadcast, times: 1, fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } },
      { method: broadcast, times: 2, fault: { kind: 'status', status: 503 } },
      { method: broadcast, times: 2, fault: { kind: 'truncate' } }, // the node took it; the answer is cut
      { method: broadcast, times: 2, fault: { kind: 'malformed' } },
      { method: broadcast, times: 2, fault: { kind: 'drop-response' } }, // the node took it; no answer
      { method: broadcast, times: 2, fault: { kind: 'reset' } },
      { method: '/wallet/gettransactioninfobyid', times: 4, fault: { kind: 'status', status: 503 } },
    ];
    const handles = rules.map((r) => proxy.add(r));
    const sent: { orderId: string; to: string; amount: bigint }[] = [];
    await withChainJobs(w.h, async () => {
      for (let i = 0; i < 9; i++) {
        const to = receiver(i);
        const orderId = await payout(w.h, m, {
          chain: 'TRON',
          symbol: 'USDT',
          amount: `1.${i + 1}`,
          orderId: `p-${++n}`,
          receiveAddress: to,
        });
        sent.push({ orderId, to, amount: 1_000_000n + BigInt(i + 1) * 100_000n });
      }
      for (const p of sent) await untilStatus(p.orderId, 'SUCCESS');
    });
    expect(handles.map((h) => h.fired)).toEqual(rules.map((r) => r.times));
    w.mine(SOLID_LAG + 1);
    for (const p of sent) {
      expect(w.node.trc20Balance(USDT, p.to), p.orderId).toBe(p.amount);
      expect(attemptsOfOrder(w.h.db, orderOf(w.h, m, p.orderId).id), p.orderId).toHaveLength(1);
      expectOneSuccess(eventsOf(w.h, m, p.orderId), p.orderId);
    }
  });
});
