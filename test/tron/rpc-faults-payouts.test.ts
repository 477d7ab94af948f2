import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import type { FaultRule } from '../helpers/fault-proxy.ts';
import { eventsOf, expectOneSuccess, orderOf, payout, withChainJobs } from '../helpers/fault-suite.ts';
import { USDT } from '../helpers/tron-chain.ts';
import { m, nextOrderNo, proxy, SOLID_LAG, untilStatus, useFaultyTronWorld, w } from './faulty-rpc-world.ts';

/**
 * Issue 14's fault-injecting RPC suite on TRON, payouts: each payout is paid exactly once (checked on
 * the receivers' balances on the node) whatever the broadcasts and the lookups after them meet.
 */
useFaultyTronWorld();

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
          orderId: `p-${nextOrderNo()}`,
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
