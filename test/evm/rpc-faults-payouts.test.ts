import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { FaultRule } from '../helpers/fault-proxy.ts';
import { eventsOf, expectOneSuccess, orderOf, payout, withChainJobs } from '../helpers/fault-suite.ts';
import { m, nextOrderNo, proxy, untilStatus, useFaultyEvmWorld, w } from './faulty-rpc-world.ts';

/**
 * Issue 14's fault-injecting RPC suite on the EVM family, payouts: each payout is paid exactly once
 * (checked on the receivers' token balances on chain) whatever the broadcasts and reads after them meet.
 */
useFaultyEvmWorld();

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
          orderId: `p-${nextOrderNo()}`,
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
