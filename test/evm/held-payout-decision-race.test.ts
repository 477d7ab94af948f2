import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import {
  failOperatorPayout,
  listOperatorPayouts,
  retryOperatorPayout,
} from '../../src/services/manage-payouts.ts';
import { sendPayouts } from '../../src/services/send-payouts.ts';
import { type EvmWorld, evmWorld, spendHotWalletNonce } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body } from '../helpers/harness.ts';
import { hookedAdapter } from '../helpers/hooked-adapter.ts';

/**
 * An operator's decision on a held payout (`kassa payouts retry|fail`, or the dashboard) taken
 * while a worker pass is judging that payout's spend slot. The sender's pass read the payout's
 * stored transaction before the decision (the node refused it: its nonce was spent elsewhere) and
 * finds the slot still unexplained after it: it must not put the payout back on hold (a retried
 * payout would then wait forever with nothing left to judge and never be paid, and a failed one
 * would be listed as held). The pass is stopped inside judgeSlot, deterministically.
 */
let w: EvmWorld;
let proxy: FaultProxy;
let m: MerchantCreated;

beforeAll(async () => {
  w = await evmWorld(['ETH'], {
    rpc: async (_chain, url) => {
      proxy = await startFaultProxy(url);
      return [proxy.url];
    },
  });
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'ETH', 'USDT', '100');
});
afterAll(async () => {
  await proxy?.close();
  await w?.close();
});

const order = (orderId: string) => {
  const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no payout ${orderId}`);
  return o;
};
const stuck = async () => (await listOperatorPayouts(w.h.rt, { stuck: true })).map((p) => p.orderId);
const received = (to: Address) => {
  const c = w.devnet.get('ETH');
  return tokenBalance(c.client, c.tokens.USDT.address, to);
};

/** A payout whose nonce the hot key spent elsewhere while its broadcast was held: held as stuck. */
async function heldPayout(orderId: string, to: Address) {
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount: '5',
    symbol: 'USDT',
    chain: 'ETH',
    orderId,
    receiveAddress: to,
  });
  expect((await body(res)).code).toBe(200);
  proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'hold' } });
  const pass = w.payouts('ETH');
  await expect.poll(() => proxy.held).toBe(1);
  const [signed] = attemptsOfOrder(w.h.db, order(orderId).id);
  await spendHotWalletNonce(w, 'ETH', signed?.nonce ?? 0);
  proxy.release();
  await pass;
  await w.payouts('ETH');
  expect(await stuck()).toContain(orderId);
}

/** A sender's pass stopped inside its slot judgement until `decide` has run. */
async function decideDuringJudgement(decide: () => Promise<unknown>) {
  const real = w.h.rt.adapters.get('ETH');
  if (!real) throw new Error('no ETH adapter');
  let entered: () => void = () => {};
  const judging = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let go: () => void = () => {};
  const decided = new Promise<void>((resolve) => {
    go = resolve;
  });
  const adapter = hookedAdapter(real, async (method) => {
    if (method !== 'judgeSlot') return;
    entered();
    await decided;
  });
  const pass = sendPayouts(w.h.rt, adapter, new AbortController().signal);
  await judging;
  await decide();
  go();
  await pass;
}

describe('a decision on a held payout taken while a worker pass judges it', () => {
  it('a retry stands: the payout is not held again, and it is signed in a new slot and paid once', async () => {
    const to = '0x0000000000000000000000000000000000007001' as Address;
    await heldPayout('race-retry', to);
    await decideDuringJudgement(() => retryOperatorPayout(w.h.rt, null, 'race-retry'));
    expect(await stuck()).toEqual([]);
    for (let i = 0; i < 4 && order('race-retry').status !== 'SUCCESS'; i++) {
      await w.payouts('ETH');
      await w.mine('ETH', 3);
    }
    expect(order('race-retry').status).toBe('SUCCESS');
    expect(await received(to)).toBe(5_000_000n);
    expect(attemptsOfOrder(w.h.db, order('race-retry').id).map((a) => a.status)).toEqual([
      'dropped',
      'final',
    ]);
  });

  it('a failure stands: the failed payout is not listed as held', async () => {
    await heldPayout('race-fail', '0x0000000000000000000000000000000000007002');
    await decideDuringJudgement(() => failOperatorPayout(w.h.rt, 'race-fail', 'paid by hand'));
    expect(order('race-fail')).toMatchObject({ status: 'FAILED', reason: 'paid by hand' });
    expect(await stuck()).not.toContain('race-fail');
  });
});
