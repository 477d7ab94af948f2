import { expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import type { PayoutFacts } from '../repositories/payout-acceptance.ts';
import { merchant, store, T0 } from './context.ts';
import {
  accept,
  attempt,
  current,
  expectLedgerConsistent,
  fulfilled,
  fund,
  rejected,
  sign,
  together,
} from './money-fixtures.contract.ts';

const HOUR = 3600_000;

/**
 * The Store contract on accepting payouts (../store/money.ts acceptPayout): once per orderId, the
 * check and the freeze in one write, nothing written when refused, the facts a decision needs, and
 * concurrent requests that can never commit more than there is. It runs inside moneyContract.
 */
export function moneyPayoutsContract(): void {
  it('accepts a payout once per orderId, freezing its amount, with an approval hold when it needs one', async () => {
    await fund(1_000n);
    const first = await accept('P-1', { amountBase: 300n });
    expect(first).toMatchObject({ created: true, paramsKey: 'payout-P-1' });
    expect(first.order).toMatchObject({ orderId: 'P-1', type: 'PAYOUT', status: 'INIT', amountBase: 300n });
    const again = await accept('P-1', { amountBase: 999n });
    expect(again).toMatchObject({ created: false, paramsKey: 'payout-P-1', order: { id: first.order.id } });
    expect((await store.listBalances())[0]).toMatchObject({ available: 700n, frozen: 300n });
    const held = await accept('P-2', { amountBase: 200n, approval: 'Waiting for approval.' });
    expect((await store.holdHistoryOf(held.order.id)).map((h) => [h.kind, h.reason, h.resolvedAt])).toEqual([
      ['approval', 'Waiting for approval.', null],
    ]);
    expect((await store.listBalances())[0]).toMatchObject({ available: 500n, frozen: 500n });
    expect((await store.ledgerEntriesOfOrder(held.order.id)).map((e) => e.kind)).toEqual(['payout_freeze']);
    await expectLedgerConsistent();
  });

  it('writes nothing for a payout the judge refuses, and freezes nothing with the ledger check off', async () => {
    await fund(100n);
    await expect(accept('P-1', { amountBase: 150n })).rejects.toMatchObject({
      code: 'insufficient_funds',
      detail: 'Insufficient funds. balance: 0.0001 Total required: 0.00015 (0.00015 amount + 0.00 fee).',
    });
    expect(await store.findOrderByMerchantOrderId('mch_a', 'P-1')).toBeNull();
    const open = await accept('P-2', { amountBase: 150n, freeze: null, judge: () => {} });
    expect(open.created).toBe(true);
    expect(await store.ledgerEntriesOfOrder(open.order.id)).toEqual([]);
    expect((await store.listBalances())[0]).toMatchObject({ available: 100n, frozen: 0n });
    // a payout accepted without a freeze moves nothing when it ends
    await store.applyOrderTransitions(
      [{ order: open.order, patch: { status: 'FAILED', reason: 'x' } }],
      T0 + 1,
    );
    expect((await store.listBalances())[0]).toMatchObject({ available: 100n, frozen: 0n });
  });

  it('judges on the balance, the day’s payouts of the symbol in its decimals, and what the hot wallet owes', async () => {
    await fund(1_000n);
    const free = { freeze: null, judge: () => {} };
    await accept('OLD', { ...free, now: T0 - 25 * HOUR });
    await accept('ETH-1', { ...free, amountBase: 100n, now: T0 - 2 * HOUR });
    await accept('BSC-1', {
      ...free,
      amountBase: 5_000_000_000_001n,
      order: { chain: 'BSC', decimals: 18 },
      now: T0 - HOUR,
    });
    await accept('ETH-NATIVE', { ...free, amountBase: 7n, order: { symbol: 'ETH', tokenContract: null } });
    const failed = await accept('FAILED', { ...free, amountBase: 1_000n });
    await store.applyOrderTransitions([{ order: failed.order, patch: { status: 'FAILED' } }], T0);
    // mined and recorded after the hot wallet's balance was read: the balance may not show it yet
    const mined = await accept('MINED', { ...free, amountBase: 40n, now: T0 - 3 * HOUR });
    await sign(mined.order, attempt('pat_m', mined.order, 1), T0 - 3 * HOUR);
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_m', status: 'mined', blockNum: 9 }],
      transitions: [{ order: await current(mined.order), patch: { status: 'PENDING_CONFIRMATION' } }],
      now: T0 + 3,
    });
    let seen: { balance: unknown; paidToday: bigint; committed: unknown } | null = null;
    await accept('NEW', {
      amountBase: 10n,
      now: T0 + 2,
      judge(facts: PayoutFacts) {
        seen = {
          balance: facts.balance(),
          paidToday: facts.paidToday(),
          committed: facts.hotWalletCommitted(),
        };
      },
    });
    expect(seen).toEqual({
      balance: { available: 1_000n, frozen: 0n },
      // ETH-1, MINED, and BSC-1 in 6 decimals rounded up; not OLD (over a day ago), FAILED, or one in ETH
      paidToday: 100n + 40n + 6n,
      // on ETH: OLD, ETH-1 and ETH-NATIVE not sent yet, MINED recorded after the balance was read (T0 + 2)
      committed: { tokenBase: 100n + 100n + 40n, nativeBase: 7n, count: 4 },
    });
  });

  it('accepts exactly the 10 of 20 concurrent payouts that the balance covers', async () => {
    await fund(1_000n);
    const results = await together(20, (i) => accept(`P-${i}`, { amountBase: 100n }));
    expect(fulfilled(results).filter((r) => r.created)).toHaveLength(10);
    expect(rejected(results).map((e) => e.code)).toEqual(Array(10).fill('insufficient_funds'));
    expect((await store.listBalances())[0]).toMatchObject({ available: 0n, frozen: 1_000n });
    expect(await store.listPayouts()).toHaveLength(10);
    await expectLedgerConsistent();
  });

  it('creates one payout for 20 concurrent requests with the same orderId, and freezes once', async () => {
    await fund(1_000n);
    const results = await together(20, () => accept('SAME', { amountBase: 100n }));
    expect(rejected(results)).toEqual([]);
    const accepted = fulfilled(results);
    expect(accepted.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(accepted.map((r) => r.order.id)).size).toBe(1);
    expect((await store.listBalances())[0]).toMatchObject({ available: 900n, frozen: 100n });
    await expectLedgerConsistent();
  });

  it('keeps a daily limit across chains when 20 payouts race for it', async () => {
    const dailyLimit = (amountBase: bigint) => (facts: PayoutFacts) => {
      if (facts.paidToday() + amountBase > 500n)
        throw new AppError('payout_refused', 'The payout exceeds the daily limit.');
    };
    const results = await together(20, (i) =>
      accept(`P-${i}`, {
        amountBase: 100n,
        freeze: null,
        judge: dailyLimit(100n),
        order: { chain: i % 2 === 0 ? 'ETH' : 'TRON' },
      }),
    );
    expect(fulfilled(results)).toHaveLength(5);
    expect(rejected(results).map((e) => e.code)).toEqual(Array(15).fill('payout_refused'));
  });

  it('never promises more than the hot wallet holds when 20 payouts of 4 merchants race', async () => {
    for (const id of ['mch_b', 'mch_c', 'mch_d']) await store.insertMerchant(merchant(id));
    const merchants = ['mch_a', 'mch_b', 'mch_c', 'mch_d'];
    const hotWallet = (amountBase: bigint) => (facts: PayoutFacts) => {
      if (facts.hotWalletCommitted().tokenBase + amountBase > 1_000n)
        throw new AppError('insufficient_balance', 'The hot wallet cannot cover it.');
    };
    const results = await together(20, (i) =>
      accept(`P-${i}`, {
        amountBase: 100n,
        freeze: null,
        judge: hotWallet(100n),
        order: { merchantId: merchants[i % 4] as string },
      }),
    );
    expect(fulfilled(results)).toHaveLength(10);
    expect(rejected(results).map((e) => e.code)).toEqual(Array(10).fill('insufficient_balance'));
  });
}
