import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { planSweeps } from '../../src/services/plan-sweeps.ts';
import { runSweeps } from '../../src/services/run-sweeps.ts';
import { sweepSettings } from '../../src/services/sweep-settings.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/**
 * Sweeping on anvil with real ERC-20s: ETH's USDT returns nothing from `transfer` (as on mainnet),
 * USDC is a standard token. The hot wallet tops up exactly the gas, waits for it to be final, then
 * the deposit key moves the whole balance; native deposits pay their own fee.
 */
let w: EvmWorld;
let m: MerchantCreated;
let n = 0;

beforeAll(async () => {
  w = await evmWorld(['ETH'], {
    confirmations: 2,
    overrides: {
      // nativeValue 100: anvil's fees stay well inside maxFeeRatio (at the default 3000 a 5-dollar sweep would not)
      chains: {
        ETH: {
          sweep: {
            destination: 'hot',
            minAmount: { USDT: '1', USDC: '1', ETH: '0.001' },
            nativeValue: '100',
          },
        },
      },
    },
  });
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

const adapter = () => w.h.rt.adapters.get('ETH') as NonNullable<ReturnType<typeof w.h.rt.adapters.get>>;
const usdt = () => w.devnet.get('ETH').tokens.USDT.address;
const usdc = () => w.devnet.get('ETH').tokens.USDC.address;
const balanceOf = (token: Address, who: string) =>
  tokenBalance(w.devnet.get('ETH').client, token, who as Address);
const ethOf = (who: string) => w.devnet.get('ETH').client.getBalance({ address: who as Address });

async function collect(symbol: string, amount: string) {
  const orderId = `s-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol, chain: 'ETH', orderId }),
  );
  expect(r.code).toBe(200);
  return { orderId, address: r.data.address };
}

async function status(orderId: string) {
  w.h.clock.advance(600);
  return (await body<{ status: string }>(await w.h.getSigned('/v1/order/status/{orderId}', m, orderId))).data
    .status;
}

const pass = () => runSweeps(w.h.rt, adapter(), new AbortController().signal, { holder: 'test' });

/** Passes (mining between them, as blocks would come) until no sweep is open. */
async function sweepAll() {
  for (let i = 0; i < 12; i++) {
    await pass();
    if ((await w.h.rt.db.openSweeps('ETH')).length === 0) return;
    await w.mine('ETH', 2);
  }
  throw new Error('sweeps still open after 12 passes');
}

async function settle() {
  await w.mine('ETH', 2);
  await w.scan('ETH');
}

describe('EVM sweeps on anvil', () => {
  it('sweeps paid, over-paid and late payments whole (USDT returning nothing, USDC), leaves dust and an open order alone', async () => {
    const hot = w.hot('ETH');
    const paid = await collect('USDT', '10');
    await w.pay('ETH', 'USDT', paid.address, 10_000_000n);
    const over = await collect('USDC', '5');
    await w.pay('ETH', 'USDC', over.address, 7_250_000n);
    const open = await collect('USDT', '20');
    await w.pay('ETH', 'USDT', open.address, 5_000_000n); // partial, still open
    const late = await collect('USDC', '3');
    await w.pay('ETH', 'USDC', late.address, 3_000_000n);
    const dust = await collect('USDC', '0.5');
    await w.pay('ETH', 'USDC', dust.address, 500_000n); // below minAmount 1
    await settle();
    await w.pay('ETH', 'USDC', late.address, 2_000_000n); // after SUCCESS: unattributed, late
    await settle();
    expect(await status(paid.orderId)).toBe('SUCCESS');
    expect(await status(over.orderId)).toBe('SUCCESS');
    expect(await status(open.orderId)).toBe('PENDING');

    const settings = sweepSettings(w.h.rt.config, 'ETH', w.h.rt.keys);
    const plan = await planSweeps(w.h.rt, adapter(), settings);
    const verdict = (address: string) => plan.filter((p) => p.address === address).map((p) => p.verdict);
    expect(verdict(paid.address)).toEqual(['sweep']);
    expect(verdict(over.address)).toEqual(['sweep']);
    expect(verdict(late.address)).toEqual(['sweep']);
    expect(verdict(dust.address)).toEqual(['below_min']);
    expect(verdict(open.address)).toEqual([]);
    // the fee is weighed against what moves: at a ratio no fee meets, nothing would be swept
    const strict = await planSweeps(w.h.rt, adapter(), { ...settings, maxFeeRatio: 0.000_01 });
    expect(strict.filter((p) => p.verdict !== 'below_min').map((p) => p.verdict)).toEqual([
      'fee_too_high',
      'fee_too_high',
      'fee_too_high',
    ]);
    // planning moves nothing
    expect(await w.h.rt.db.listSweeps()).toHaveLength(0);

    const hotUsdt = await balanceOf(usdt(), hot);
    const hotUsdc = await balanceOf(usdc(), hot);
    await sweepAll();
    expect(await balanceOf(usdt(), paid.address)).toBe(0n);
    expect(await balanceOf(usdc(), over.address)).toBe(0n);
    expect(await balanceOf(usdc(), late.address)).toBe(0n);
    expect((await balanceOf(usdt(), hot)) - hotUsdt).toBe(10_000_000n);
    expect((await balanceOf(usdc(), hot)) - hotUsdc).toBe(7_250_000n + 5_000_000n);
    expect(await balanceOf(usdc(), dust.address)).toBe(500_000n);
    expect(await balanceOf(usdt(), open.address)).toBe(5_000_000n);

    const sweeps = await w.h.rt.db.listSweeps();
    expect(sweeps.map((s) => s.status)).toEqual(['final', 'final', 'final']);
    for (const s of sweeps) {
      const txs = await w.h.rt.db.sweepTxsOf(s.id);
      expect(txs.map((t) => [t.role, t.status])).toEqual([
        ['topup', 'final'],
        ['transfer', 'final'],
      ]);
      // the top-up covered the transfer's gas: the address kept only the margin's change
      const topup = txs[0] as (typeof txs)[number];
      const transfer = txs[1] as (typeof txs)[number];
      expect(BigInt(transfer.feeBase ?? '0')).toBeLessThanOrEqual(BigInt(topup.valueBase));
      expect(await ethOf(s.address)).toBe(BigInt(topup.valueBase) - BigInt(transfer.feeBase ?? '0'));
    }
    // costs: what the hot wallet sent plus its own fees, per sweep
    const costs = await w.h.rt.db.sumOperatorCosts();
    expect(costs).toEqual([
      expect.objectContaining({ chain: 'ETH', kind: 'gas_topup', symbol: 'ETH', count: 3 }),
    ]);
    const expected = (await Promise.all(sweeps.map(async (s) => w.h.rt.db.sweepTxsOf(s.id))))
      .flat()
      .filter((t) => t.role === 'topup')
      .reduce((sum, t) => sum + BigInt(t.valueBase) + BigInt(t.feeBase ?? '0'), 0n);
    expect(costs[0]?.amountBase).toBe(expected);

    // a second pass finds nothing more to do
    await pass();
    expect(await w.h.rt.db.listSweeps()).toHaveLength(3);

    // /metrics: what was swept, what waits (the dust; the open order's address is not counted), the costs
    const metrics = await (await w.h.admin.request('/metrics')).text();
    expect(metrics).toContain('kassa_swept_amount_total{chain="ETH",symbol="USDT"} 10\n');
    expect(metrics).toContain('kassa_swept_amount_total{chain="ETH",symbol="USDC"} 12.25\n');
    expect(metrics).toContain('kassa_sweep_pending_amount{chain="ETH",symbol="USDC"} 0.5\n');
    expect(metrics).not.toContain('kassa_sweep_pending_amount{chain="ETH",symbol="USDT"}');
    expect(metrics).toContain('kassa_sweeps{chain="ETH",symbol="USDC",status="final"} 2\n');
    expect(metrics).toMatch(
      /kassa_operator_costs_total\{chain="ETH",kind="gas_topup",symbol="ETH"\} 0\.0\d+/,
    );
  });

  it('sweeps what a partly paid order left once it expired', async () => {
    const partial = await collect('USDC', '8');
    await w.pay('ETH', 'USDC', partial.address, 3_000_000n);
    await settle();
    expect(await status(partial.orderId)).toBe('PENDING');
    await pass();
    expect((await w.h.rt.db.listSweeps()).filter((s) => s.address === partial.address)).toHaveLength(0);
    const c = w.devnet.get('ETH').client;
    const latest = await c.getBlock();
    await c.setNextBlockTimestamp({ timestamp: latest.timestamp + 61n * 60n });
    await settle();
    w.h.clock.advance(61 * 60 * 1000);
    await expireOrders(w.h.rt);
    expect(await status(partial.orderId)).toBe('EXPIRED');
    await sweepAll();
    expect(await balanceOf(usdc(), partial.address)).toBe(0n);
    const [s] = (await w.h.rt.db.listSweeps()).filter((x) => x.address === partial.address);
    expect(s).toMatchObject({ status: 'final', amountBase: '3000000', feeMode: 'topup' });
  });

  it('sweeps a native deposit whole minus its own fee, which is recorded as a sweep fee', async () => {
    const native = await collect('ETH', '0.05');
    await w.pay('ETH', 'native', native.address, 50_000_000_000_000_000n);
    await settle();
    expect(await status(native.orderId)).toBe('SUCCESS');
    const hotBefore = await ethOf(w.hot('ETH'));
    await sweepAll();
    const [s] = (await w.h.rt.db.listSweeps()).filter((x) => x.address === native.address);
    expect(s?.feeMode).toBe('self');
    const [transfer] = await w.h.rt.db.sweepTxsOf(s?.id as string);
    const fee = BigInt(transfer?.feeBase ?? '0');
    expect(fee).toBeGreaterThan(0n);
    expect((await ethOf(w.hot('ETH'))) - hotBefore).toBe(
      50_000_000_000_000_000n - fee - (await ethOf(native.address)),
    );
    expect(await ethOf(native.address)).toBeLessThan(fee); // at most the unused part of the fee cap
    const costs = await w.h.rt.db.sumOperatorCosts();
    expect(costs.find((c) => c.kind === 'sweep_fee')).toMatchObject({
      chain: 'ETH',
      amountBase: fee,
      count: 1,
    });
  });
});
