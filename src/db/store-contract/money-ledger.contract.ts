import { expect, it } from 'vitest';
import { create, store, T0 } from './context.ts';
import {
  accept,
  expectLedgerConsistent,
  fulfilled,
  fund,
  KEY,
  rejected,
  together,
} from './money-fixtures.contract.ts';

/**
 * The Store contract on the merchants' ledger (../store/money.ts): what credits and debits it, how
 * it is read back, and that concurrent movements of one balance add up and never take it below
 * zero. It runs inside moneyContract.
 */
export function moneyLedgerContract(): void {
  it('credits a paid collection with what arrived less its fee, in an entry that names the order', async () => {
    const { order } = await create('C-1', { fee: '0.5' });
    await store.applyOrderTransitions(
      [{ order, patch: { status: 'SUCCESS', receivedBase: 12_000_000n, actualAmountBase: 12_000_000n } }],
      T0 + 5,
    );
    const [balance] = await store.listBalances({ merchantId: 'mch_a' });
    expect(balance).toMatchObject({ ...KEY, available: 11_500_000n, frozen: 0n, updatedAt: T0 + 5 });
    expect(await store.listLedgerEntries({ merchantId: 'mch_a' })).toMatchObject([
      {
        kind: 'collection_credit',
        availableDelta: 11_500_000n,
        frozenDelta: 0n,
        orderRef: order.id,
        orderId: 'C-1',
      },
    ]);
    await expectLedgerConsistent();
  });

  it('credits a collection once when 10 settle it at once', async () => {
    const { order } = await create('C-1');
    const paid = { status: 'SUCCESS' as const, receivedBase: 10_000_000n, actualAmountBase: 10_000_000n };
    const results = await together(10, (i) => store.applyOrderTransitions([{ order, patch: paid }], T0 + i));
    expect(fulfilled(results)).toHaveLength(1);
    expect(rejected(results).every((e) => e.code === 'state_conflict')).toBe(true);
    expect(await store.ledgerEntriesOfOrder(order.id)).toHaveLength(1);
    const [balance] = await store.listBalances();
    expect(balance?.available).toBe(10_000_000n);
    await expectLedgerConsistent();
  });

  it('adds up every movement of one balance made at once: 10 collections paid, 5 payouts rejected', async () => {
    await fund(1_000n);
    const paid = [];
    for (let i = 0; i < 10; i++) paid.push((await create(`C-${i}`)).order);
    const refused = [];
    for (let i = 0; i < 5; i++)
      refused.push((await accept(`P-${i}`, { amountBase: 100n, approval: 'Waiting.' })).order);
    const credit = { status: 'SUCCESS' as const, receivedBase: 1_000n, actualAmountBase: 1_000n };
    const results = await Promise.allSettled([
      ...paid.map((order, i) => store.applyOrderTransitions([{ order, patch: credit }], T0 + i)),
      ...refused.map((order) => store.rejectPayout({ orderRef: order.id, reason: 'no', now: T0 + 1 })),
    ]);
    expect(rejected(results)).toEqual([]);
    expect((await store.listBalances())[0]).toMatchObject({ available: 1_000n + 10_000n, frozen: 0n });
    await expectLedgerConsistent();
  });

  it('adds up 20 concurrent top-ups, and lets through exactly the withdrawals the balance covers', async () => {
    await together(20, (i) =>
      store.adjustBalance({ ...KEY, amountBase: 7n, reason: `top-up ${i}`, now: T0 + i }),
    );
    expect((await store.listBalances())[0]?.available).toBe(140n);
    const results = await together(20, (i) =>
      store.adjustBalance({ ...KEY, amountBase: -10n, reason: `correction ${i}`, now: T0 + 100 + i }),
    );
    expect(fulfilled(results)).toHaveLength(14);
    expect(rejected(results).map((e) => e.code)).toEqual(Array(6).fill('ledger_negative'));
    expect((await store.listBalances())[0]).toMatchObject({ available: 0n, frozen: 0n });
    expect(await store.listLedgerEntries({ merchantId: 'mch_a' })).toHaveLength(34);
    await expectLedgerConsistent();
  });

  it('adjusts once when the same form is sent 10 times at once', async () => {
    const form = { ...KEY, amountBase: 5n, reason: 'top-up', expectLastAdjustment: null };
    const first = await together(10, () => store.adjustBalance({ ...form, now: T0 }));
    expect(fulfilled(first)).toHaveLength(1);
    expect(rejected(first).map((e) => e.code)).toEqual(Array(9).fill('state_conflict'));
    // the next form shows the adjustment just made, even one written in the same millisecond
    const seen = await store.lastAdjustmentId('mch_a');
    const second = await together(10, () =>
      store.adjustBalance({ ...form, expectLastAdjustment: seen, now: T0 }),
    );
    expect(fulfilled(second)).toHaveLength(1);
    expect((await store.listBalances())[0]?.available).toBe(10n);
    expect(await store.lastAdjustmentId('mch_a')).not.toBe(seen);
    await expectLedgerConsistent();
  });

  it('keeps a refused adjustment and a refused freeze out of the ledger, and the reason of each entry', async () => {
    await fund(100n);
    await expect(accept('P-1', { amountBase: 150n, judge: () => {} })).rejects.toMatchObject({
      code: 'ledger_negative',
    });
    expect(await store.findOrderByMerchantOrderId('mch_a', 'P-1')).toBeNull();
    const entries = await store.listLedgerEntries({ merchantId: 'mch_a' });
    expect(entries.map((e) => [e.kind, e.reason, e.orderId])).toEqual([['adjustment', 'top-up', null]]);
    await expectLedgerConsistent();
  });

  it('lists entries oldest first up to a limit, one order’s in the order they happened, balances by key', async () => {
    await fund(1_000n);
    await fund(50n, { chain: 'TRON' });
    await store.insertMerchant({ ...(await store.findMerchant('mch_a'))!, id: 'mch_b' });
    await fund(9n, { merchantId: 'mch_b' });
    const { order } = await accept('P-1', { amountBase: 300n, now: T0 + 10 });
    // accepted and rejected in the same millisecond: the freeze still comes first
    await store.applyOrderTransitions([{ order, patch: { status: 'FAILED', reason: 'refused' } }], T0 + 10);
    expect(
      (await store.ledgerEntriesOfOrder(order.id)).map((e) => [e.kind, e.availableDelta, e.frozenDelta]),
    ).toEqual([
      ['payout_freeze', -300n, 300n],
      ['payout_release', 300n, -300n],
    ]);
    const entries = await store.listLedgerEntries({ merchantId: 'mch_a' });
    expect(entries.map((e) => e.kind)).toEqual([
      'adjustment',
      'adjustment',
      'payout_freeze',
      'payout_release',
    ]);
    expect(entries.slice(2).map((e) => [e.orderId, e.reason])).toEqual([
      ['P-1', null],
      ['P-1', 'refused'],
    ]);
    expect(await store.listLedgerEntries({ merchantId: 'mch_a', limit: 1 })).toHaveLength(1);
    const all = await store.listBalances();
    expect(all.map((b) => [b.merchantId, b.chain, b.available])).toEqual([
      ['mch_a', 'ETH', 1_000n],
      ['mch_a', 'TRON', 50n],
      ['mch_b', 'ETH', 9n],
    ]);
    expect((await store.listBalances({ chain: 'TRON' })).map((b) => b.merchantId)).toEqual(['mch_a']);
    expect(await store.listBalances({ merchantId: 'mch_a', symbol: 'USDC' })).toEqual([]);
    const sums = await expectLedgerConsistent();
    expect(sums.size).toBe(3);
  });
}
