import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBalances, listLedgerEntries, sumLedgerEntries } from '../../src/db/repositories/ledger.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { setBlocked, tokenBalance } from '../../src/devnet/evm/tokens.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { pausePayouts, resumePayouts } from '../../src/services/payout-pause.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/**
 * The merchant ledger against a real chain (anvil, real ERC-20s): what credits a balance, what
 * freezes, debits and releases it, the 422 a merchant sees when it is short, and the checks that
 * concurrent createPayout requests cannot overdraw (the merchant's balance and the hot wallet's).
 */
let w: EvmWorld;
let m: MerchantCreated;
let n = 0;
const receiver = '0x4444444444444444444444444444444444444444' as Address;
const USDT = 1_000_000n;
const fmt = (v: bigint) =>
  `${v / USDT}.${String(v % USDT)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0')}`;

beforeAll(async () => {
  w = await evmWorld(['ETH'], { overrides: { orders: { handlingFee: '0.50' } } });
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

/** A merchant created mid-run: the API's merchant directory sees it once its cache (on the manual clock) ages. */
async function newMerchant() {
  const created = await w.h.merchant('V3');
  w.h.clock.advance(1000);
  return created;
}

async function balance(merchant = m, symbol = 'USDT') {
  const [b] = await listBalances(w.h.db, { merchantId: merchant.merchantId, chain: 'ETH', symbol });
  return { available: b?.available ?? 0n, frozen: b?.frozen ?? 0n };
}

async function payout(amount: string, options: { to?: string; merchant?: MerchantCreated } = {}) {
  const orderId = `lp-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', options.merchant ?? m, {
    amount,
    symbol: 'USDT',
    chain: 'ETH',
    orderId,
    receiveAddress: options.to ?? receiver,
  });
  return { orderId, status: res.status, r: await body(res) };
}

const order = (orderId: string, merchant = m) => {
  const o = findOrderByMerchantOrderId(w.h.db, merchant.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
};

async function collect(amount: string, paid: bigint) {
  const orderId = `lc-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol: 'USDT', chain: 'ETH', orderId }),
  );
  await w.pay('ETH', 'USDT', r.data.address, paid);
  return orderId;
}

/** Balances equal the sum of the entries, and never go below zero. */
async function expectConsistent() {
  const sums = await sumLedgerEntries(w.h.db);
  for (const b of await listBalances(w.h.db)) {
    expect(sums.get(`${b.merchantId}/${b.chain}/${b.symbol}`)).toEqual({
      available: b.available,
      frozen: b.frozen,
    });
    expect(b.available).toBeGreaterThanOrEqual(0n);
    expect(b.frozen).toBeGreaterThanOrEqual(0n);
  }
}

describe('a merchant’s balance on a real chain', () => {
  it('credits a paid collection with actualAmount − fee once it is SUCCESS, never before and never twice', async () => {
    const exact = await collect('10', 10n * USDT);
    const over = await collect('10', 12n * USDT); // overpaid: what arrived counts
    await w.scan('ETH');
    expect(order(exact).status).toBe('PENDING_CONFIRMATION');
    expect(await balance()).toEqual({ available: 0n, frozen: 0n });
    await w.mine('ETH', 3);
    await w.scan('ETH');
    await w.scan('ETH');
    expect(order(exact).status).toBe('SUCCESS');
    expect(order(over).actualAmountBase).toBe(12n * USDT);
    expect(await balance()).toEqual({ available: 9_500_000n + 11_500_000n, frozen: 0n });
    const credits = (await listLedgerEntries(w.h.db, { merchantId: m.merchantId })).filter(
      (e) => e.kind === 'collection_credit',
    );
    expect(credits.map((e) => [e.orderId, e.availableDelta]).sort()).toEqual([
      [exact, 9_500_000n],
      [over, 11_500_000n],
    ]);
    await expectConsistent();
  });

  it('freezes amount + fee when a payout is accepted and debits it when the payout is SUCCESS', async () => {
    await w.h.fund(m, 'ETH', 'USDT', '100');
    const before = await balance();
    const p = await payout('20');
    expect(p.status).toBe(200);
    expect(await balance()).toEqual({ available: before.available - 20_500_000n, frozen: 20_500_000n });
    await w.payouts('ETH');
    await w.mine('ETH', 3);
    await w.payouts('ETH');
    expect(order(p.orderId).status).toBe('SUCCESS');
    expect(await balance()).toEqual({ available: before.available - 20_500_000n, frozen: 0n });
    const entries = (await listLedgerEntries(w.h.db, { merchantId: m.merchantId })).filter(
      (e) => e.orderId === p.orderId,
    );
    expect(entries.map((e) => [e.kind, e.availableDelta, e.frozenDelta])).toEqual([
      ['payout_freeze', -20_500_000n, 20_500_000n],
      ['payout_debit', 0n, -20_500_000n],
    ]);
    await expectConsistent();
  });

  it('refuses a payout the available balance cannot cover with the message XPay clients handle, writing nothing', async () => {
    const { available } = await balance();
    const entries = (await listLedgerEntries(w.h.db, { merchantId: m.merchantId })).length;
    const amount = available - 250_000n; // with its 0.50 fee, 0.25 more than there is
    const p = await payout(fmt(amount));
    expect(p.status).toBe(422);
    expect(p.r).toEqual({
      code: 422,
      msg: `Insufficient funds. balance: ${fmt(available)} Total required: ${fmt(available + 250_000n)} (${fmt(amount)} amount + 0.50 fee).`,
      data: null,
    });
    expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, p.orderId)).toBeNull();
    expect((await listLedgerEntries(w.h.db, { merchantId: m.merchantId })).length).toBe(entries);
    expect(await balance()).toEqual({ available, frozen: 0n });
  });

  it('releases what a payout froze when it fails on chain and when it expires unsent', async () => {
    const { available } = await balance();
    const blocked = '0x2222222222222222222222222222222222222222' as Address;
    const c = w.devnet.get('ETH');
    await setBlocked(c.client, { token: c.tokens.USDT.address, account: blocked, blocked: true });
    const failing = await payout('3', { to: blocked });
    expect(await balance()).toEqual({ available: available - 3_500_000n, frozen: 3_500_000n });
    await w.payouts('ETH');
    expect(order(failing.orderId).status).toBe('FAILED');
    expect(await balance()).toEqual({ available, frozen: 0n });

    await pausePayouts(w.h.rt, 'ETH');
    const expiring = await payout('4');
    await w.payouts('ETH'); // paused: never signed
    w.h.clock.advance(31 * 60_000);
    await expireOrders(w.h.rt);
    await resumePayouts(w.h.rt);
    expect(order(expiring.orderId).status).toBe('EXPIRED');
    expect(await balance()).toEqual({ available, frozen: 0n });
    const released = (await listLedgerEntries(w.h.db, { merchantId: m.merchantId })).filter(
      (e) => e.kind === 'payout_release',
    );
    expect(released.map((e) => [e.orderId, e.availableDelta, e.reason])).toEqual([
      [failing.orderId, 3_500_000n, expect.stringContaining('The transfer would revert')],
      [expiring.orderId, 4_500_000n, 'The payout was not sent before it expired.'],
    ]);
    await expectConsistent();
  });

  it('answers POST /v1/merchant/getBalance with available, frozen and total per token, filtered by chain and symbol', async () => {
    const { available } = await balance();
    const held = await payout('1');
    const all = await body<Record<string, unknown>[]>(await w.h.post('/v1/merchant/getBalance', m, {}));
    expect(all.code).toBe(200);
    expect(all.data.map((b) => `${b.chain}/${b.symbol}`)).toEqual(['ETH/USDT', 'ETH/USDC', 'ETH/ETH']);
    const usdt = await body<Record<string, unknown>[]>(
      await w.h.post('/v1/merchant/getBalance', m, { chain: 'ETH', symbol: 'usdt' }),
    );
    const fmt = (v: bigint) =>
      `${v / USDT}.${String(v % USDT)
        .padStart(6, '0')
        .replace(/0+$/, '')
        .padEnd(2, '0')}`;
    expect(usdt.data).toEqual([
      {
        chain: 'ETH',
        symbol: 'USDT',
        balance: fmt(available - 1_500_000n),
        frozenBalance: '1.50',
        totalBalance: fmt(available),
        updateTime: expect.any(Number),
      },
    ]);
    expect(all.data[1]).toMatchObject({ symbol: 'USDC', balance: '0.00', updateTime: null });
    const other = await newMerchant();
    const none = await body<Record<string, unknown>[]>(
      await w.h.post('/v1/merchant/getBalance', other, { chain: 'ETH', symbol: 'USDT' }),
    );
    expect(none.data).toEqual([
      {
        chain: 'ETH',
        symbol: 'USDT',
        balance: '0.00',
        frozenBalance: '0.00',
        totalBalance: '0.00',
        updateTime: null,
      },
    ]);
    const bad = await w.h.post('/v1/merchant/getBalance', m, { chain: 'BTC' });
    expect(await body(bad)).toEqual({ code: 400, msg: 'The chain is not supported.', data: null });
    await w.payouts('ETH');
    await w.mine('ETH', 3);
    await w.payouts('ETH');
    expect(order(held.orderId).status).toBe('SUCCESS');
  });
});

describe('payouts.requireMerchantBalance off (the operator pays from their own hot wallet)', () => {
  it('accepts payouts without a merchant balance and moves no money for them; the hot wallet check stays', async () => {
    const own = await newMerchant();
    w.h.rt.config.payouts.requireMerchantBalance = false;
    try {
      const p = await payout('5', { merchant: own });
      expect(p.status).toBe(200);
      expect(await listLedgerEntries(w.h.db, { merchantId: own.merchantId })).toEqual([]);
      const tooMuch = await payout('5000000', { merchant: own }); // more than the hot wallet holds
      expect(tooMuch.r).toEqual({ code: 422, msg: 'Insufficient balance for this payout.', data: null });
      await w.payouts('ETH');
      await w.mine('ETH', 3);
      await w.payouts('ETH');
      expect(order(p.orderId, own).status).toBe('SUCCESS');
      expect(await listLedgerEntries(w.h.db, { merchantId: own.merchantId })).toEqual([]);
      expect(await listBalances(w.h.db, { merchantId: own.merchantId })).toEqual([]);
    } finally {
      w.h.rt.config.payouts.requireMerchantBalance = true;
    }
    expect((await payout('5', { merchant: own })).r.msg).toMatch(/^Insufficient funds\. balance: 0\.00 /);
  });
});

describe('concurrent createPayout requests never commit more than there is', () => {
  it('20 at once against the merchant’s balance: the accepted ones sum to at most the balance', async () => {
    const rich = await newMerchant();
    await w.h.fund(rich, 'ETH', 'USDT', '1000');
    const results = await Promise.all(Array.from({ length: 20 }, () => payout('61.5', { merchant: rich })));
    const accepted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 422);
    expect(accepted.length + refused.length).toBe(20);
    expect(accepted).toHaveLength(16); // 16 × 62 = 992 ≤ 1000 < 17 × 62
    expect(refused[0]?.r.msg).toMatch(/^Insufficient funds\. balance: 8\.00 Total required: 62\.00/);
    expect(await balance(rich)).toEqual({ available: 8n * USDT, frozen: 992n * USDT });
    await expectConsistent();
  });

  it('20 at once against the hot wallet: the accepted ones sum to at most what it holds', async () => {
    const c = w.devnet.get('ETH');
    // settle what is queued so far, then measure what the hot wallet holds
    for (let i = 0; i < 3; i++) {
      await w.payouts('ETH');
      await w.mine('ETH', 3);
    }
    await w.payouts('ETH');
    const held = await tokenBalance(c.client, c.tokens.USDT.address, w.hot('ETH'));
    const whale = await newMerchant();
    await w.h.fund(whale, 'ETH', 'USDT', '100000000');
    const each = held / 16n / USDT + 1n; // 16 fit only just not: 15 do
    const results = await Promise.all(
      Array.from({ length: 20 }, () => payout(String(each), { merchant: whale })),
    );
    const accepted = results.filter((r) => r.status === 200);
    expect(BigInt(accepted.length) * each * USDT).toBeLessThanOrEqual(held);
    expect(accepted).toHaveLength(15);
    expect(results.filter((r) => r.status === 422).map((r) => r.r.msg)).toEqual(
      Array(5).fill('Insufficient balance for this payout.'),
    );
  });
});
