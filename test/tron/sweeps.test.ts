import { TronWeb } from 'tronweb';
import { afterEach, describe, expect, it } from 'vitest';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { runSweeps } from '../../src/services/run-sweeps.ts';
import { body } from '../helpers/harness.ts';
import { HOT, SUN, type TronWorld, tronGenesis, tronWorld, USDT } from '../helpers/tron-chain.ts';

/**
 * Sweeping on the fake TRON node (USDT returns false from transfer, as on mainnet): the hot wallet
 * sends the TRX that burning the transfer's energy costs, or, when it has staked TRX, lends the
 * energy and takes it back afterwards.
 */
let w: TronWorld;
let m: MerchantCreated;
let n = 0;
afterEach(() => w?.close());

// a first sweep costs about 2.6 TRX (activating the address, then 14,650 energy at 100 sun): at
// 0.3 dollars a TRX that is 0.77 dollars, too much for 2 USDT under the default 5 %
const SWEEP = { destination: 'hot', minAmount: { USDT: '1' }, nativeValue: '0.3', maxFeeRatio: 0.5 };

async function world(genesis = tronGenesis()) {
  w = await tronWorld({ genesis, overrides: { chains: { TRON: { sweep: SWEEP } } } });
  m = await w.h.merchant('V3');
}

async function collect(amount: string) {
  const orderId = `ts-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol: 'USDT', chain: 'TRON', orderId }),
  );
  expect(r.code).toBe(200);
  return { orderId, address: r.data.address };
}

async function status(orderId: string) {
  w.h.clock.advance(600);
  return (await body<{ status: string }>(await w.h.getSigned('/v1/order/status/{orderId}', m, orderId))).data
    .status;
}

const adapter = () => w.h.rt.adapters.get('TRON') as NonNullable<ReturnType<typeof w.h.rt.adapters.get>>;
const pass = () => runSweeps(w.h.rt, adapter(), new AbortController().signal, { holder: 'test' });

async function sweepAll() {
  for (let i = 0; i < 12; i++) {
    await pass();
    if ((await w.h.rt.db.openSweeps('TRON')).length === 0) return;
    w.solidify();
  }
  throw new Error('sweeps still open after 12 passes');
}

async function settle() {
  w.solidify();
  await w.scan();
}

describe('TRON sweeps on the fake node', () => {
  it('sweeps paid, over-paid, partly paid (expired) and late USDT with TRX the hot wallet sent to burn; dust stays', async () => {
    await world();
    const paid = await collect('10');
    await w.pay('USDT', paid.address, 10_000_000n);
    const over = await collect('4');
    await w.pay('USDT', over.address, 6_500_000n);
    const partial = await collect('20');
    await w.pay('USDT', partial.address, 2_000_000n);
    const late = await collect('3');
    await w.pay('USDT', late.address, 3_000_000n);
    const dust = await collect('0.5');
    await w.pay('USDT', dust.address, 500_000n);
    await settle();
    await w.pay('USDT', late.address, 4_000_000n); // after SUCCESS: late, unattributed
    await settle();
    expect(await status(partial.orderId)).toBe('PENDING');
    w.h.clock.advance(61 * 60 * 1000);
    w.mine(61 * 20); // 61 minutes of 3-second blocks
    await settle();
    await expireOrders(w.h.rt);
    expect(await status(partial.orderId)).toBe('EXPIRED');

    const hotUsdt = w.node.trc20Balance(USDT, HOT);
    const hotTrx = w.node.trxBalance(HOT);
    await sweepAll();
    for (const a of [paid, over, partial, late]) expect(w.node.trc20Balance(USDT, a.address)).toBe(0n);
    expect(w.node.trc20Balance(USDT, dust.address)).toBe(500_000n);
    expect(w.node.trc20Balance(USDT, HOT) - hotUsdt).toBe(10_000_000n + 6_500_000n + 2_000_000n + 7_000_000n);

    const sweeps = await w.h.rt.db.listSweeps();
    expect(sweeps.map((s) => [s.feeMode, s.status])).toEqual(Array(4).fill(['topup', 'final']));
    for (const s of sweeps)
      expect((await w.h.rt.db.sweepTxsOf(s.id)).map((t) => [t.role, t.status])).toEqual([
        ['topup', 'final'],
        ['transfer', 'final'],
      ]);
    // the TRX the hot wallet spent is exactly the energy costs recorded
    const costs = await w.h.rt.db.sumOperatorCosts();
    expect(costs).toEqual([
      expect.objectContaining({ chain: 'TRON', kind: 'energy', symbol: 'TRX', count: 4 }),
    ]);
    expect(hotTrx - w.node.trxBalance(HOT)).toBe(costs[0]?.amountBase);
  });

  it('lends staked energy instead of sending TRX to burn, and takes it back after the transfer', async () => {
    await world(tronGenesis({ hotFrozenEnergySun: 5_000n * SUN }));
    const paid = await collect('7');
    await w.pay('USDT', paid.address, 7_000_000n);
    await settle();
    await sweepAll();
    expect(w.node.trc20Balance(USDT, paid.address)).toBe(0n);
    const [s] = await w.h.rt.db.listSweeps();
    expect(s).toMatchObject({ feeMode: 'delegate', status: 'final' });
    expect((await w.h.rt.db.sweepTxsOf(s?.id as string)).map((t) => [t.role, t.status])).toEqual([
      ['topup', 'final'], // 1 sun: the address must exist before energy can be lent to it
      ['delegate', 'final'],
      ['transfer', 'final'],
      ['undelegate', 'final'],
    ]);
    const lendable = await fetch(`${w.node.url}/wallet/getcandelegatedmaxsize`, {
      method: 'POST',
      body: JSON.stringify({ owner_address: TronWeb.address.toHex(HOT), type: 1 }),
    });
    expect(((await lendable.json()) as { max_size: number }).max_size).toBe(Number(5_000n * SUN));
  });
});
