import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { runSweeps } from '../../src/services/run-sweeps.ts';
import { body } from '../helpers/harness.ts';
import { SUI, type SuiWorld, suiWorld, USDC } from '../helpers/sui-chain.ts';

/**
 * Sweeping on the fake Sui node: sponsored transactions (the deposit address sends, the hot wallet
 * owns and signs the gas), coins of one type merged into one transfer, nothing sent first.
 */
let w: SuiWorld;
let m: MerchantCreated;
let n = 0;

beforeAll(async () => {
  w = await suiWorld({
    overrides: {
      chains: {
        SUI: { sweep: { destination: 'hot', minAmount: { USDC: '1', SUI: '0.5' }, nativeValue: '3' } },
      },
    },
  });
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

async function collect(symbol: 'USDC' | 'SUI', amount: string) {
  const orderId = `su-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol, chain: 'SUI', orderId }),
  );
  expect(r.code).toBe(200);
  return { orderId, address: r.data.address };
}

async function status(orderId: string) {
  w.h.clock.advance(600);
  return (await body<{ status: string }>(await w.h.getSigned('/v1/order/status/{orderId}', m, orderId))).data
    .status;
}

const pass = () => runSweeps(w.h.rt, w.adapter, new AbortController().signal, { holder: 'test' });

async function sweepAll() {
  for (let i = 0; i < 8; i++) {
    await pass();
    if ((await w.h.rt.db.openSweeps('SUI')).length === 0) return;
    w.seal();
  }
  throw new Error('sweeps still open after 8 passes');
}

describe('Sui sweeps on the fake node', () => {
  it('sweeps a payment made in two parts (two coins merged), an over-payment, a late payment and SUI, sponsored by the hot wallet; dust stays', async () => {
    const twoParts = await collect('USDC', '10');
    await w.pay('USDC', twoParts.address, 4_000_000n);
    await w.pay('USDC', twoParts.address, 6_000_000n);
    const over = await collect('USDC', '2');
    await w.pay('USDC', over.address, 3_500_000n);
    const late = await collect('USDC', '2');
    await w.pay('USDC', late.address, 2_000_000n);
    const dust = await collect('USDC', '0.5');
    await w.pay('USDC', dust.address, 500_000n);
    const native = await collect('SUI', '2');
    await w.pay('SUI', native.address, 2n * SUI);
    await w.scan();
    await w.pay('USDC', late.address, 1_500_000n); // after SUCCESS: late
    await w.scan();
    for (const o of [twoParts, over, late, native]) expect(await status(o.orderId)).toBe('SUCCESS');

    const hotUsdc = await w.balanceOf(w.hot, w.node.usdcType);
    const hotSui = await w.balanceOf(w.hot, w.node.suiType);
    await sweepAll();
    for (const o of [twoParts, over, late]) expect(await w.balanceOf(o.address, w.node.usdcType)).toBe(0n);
    expect(await w.balanceOf(native.address, w.node.suiType)).toBe(0n);
    expect(await w.balanceOf(dust.address, w.node.usdcType)).toBe(500_000n);
    expect((await w.balanceOf(w.hot, w.node.usdcType)) - hotUsdc).toBe(10n * USDC + 3_500_000n + 3_500_000n);

    const sweeps = await w.h.rt.db.listSweeps();
    expect(sweeps.map((s) => [s.feeMode, s.status])).toEqual(Array(4).fill(['sponsor', 'final']));
    for (const s of sweeps)
      expect((await w.h.rt.db.sweepTxsOf(s.id)).map((t) => [t.role, t.status, t.feePayer])).toEqual([
        ['transfer', 'final', w.hot],
      ]);
    // the hot wallet received the SUI deposit whole and paid every sweep's gas: recorded as sweep fees
    const costs = await w.h.rt.db.sumOperatorCosts();
    expect(costs).toEqual([
      expect.objectContaining({ chain: 'SUI', kind: 'sweep_fee', symbol: 'SUI', count: 4 }),
    ]);
    expect((await w.balanceOf(w.hot, w.node.suiType)) - hotSui).toBe(2n * SUI - (costs[0]?.amountBase ?? 0n));
  });
});
