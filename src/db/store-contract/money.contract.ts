import { describe, expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { moneyAttemptsContract } from './money-attempts.contract.ts';
import { moneyDecisionsContract } from './money-decisions.contract.ts';
import { moneyLedgerContract } from './money-ledger.contract.ts';
import { moneyPayoutsContract } from './money-payouts.contract.ts';
import { moneySenderContract } from './money-sender.contract.ts';

/**
 * The Store contract on balances and the ledger, payouts with their attempts and holds
 * (../store/money.ts); it runs inside storeContract's describe.
 */
export function moneyContract(): void {
  it('never takes a balance below zero, and a refused adjustment leaves no entry', async () => {
    const key = { merchantId: 'mch_a', chain: 'ETH', symbol: 'USDT', decimals: 6 };
    await store.adjustBalance({ ...key, amountBase: 100n, reason: 'top-up', now: T0 });
    await expect(
      store.adjustBalance({ ...key, amountBase: -150n, reason: 'too much', now: T0 + 1 }),
    ).rejects.toMatchObject({ code: 'ledger_negative' });
    const [balance] = await store.listBalances({ merchantId: 'mch_a' });
    expect(balance?.available).toBe(100n);
    expect((await store.listLedgerEntries({ merchantId: 'mch_a' })).length).toBe(1);
  });

  it('adjusts once per form (the newest adjustment it saw), and pages the ledger newest first', async () => {
    const key = { merchantId: 'mch_a', chain: 'ETH', symbol: 'USDT', decimals: 6 };
    const form = { ...key, amountBase: 5n, reason: 'top-up', expectLastAdjustment: null };
    await store.adjustBalance({ ...form, now: T0 });
    await expect(store.adjustBalance({ ...form, now: T0 + 1 })).rejects.toMatchObject({
      code: 'state_conflict',
    });
    const newest = await store.lastAdjustmentId('mch_a');
    await store.adjustBalance({ ...form, expectLastAdjustment: newest, amountBase: 7n, now: T0 + 2 });
    const page = await store.pageLedgerEntries({ merchantId: 'mch_a', before: null, limit: 1 });
    expect(page.map((e) => e.availableDelta)).toEqual([7n]);
    const [last] = page;
    const older = await store.pageLedgerEntries({ merchantId: 'mch_a', before: last!, limit: 5 });
    expect(older.map((e) => e.availableDelta)).toEqual([5n]);
  });

  describe('money', () => {
    describe('ledger', moneyLedgerContract);
    describe('payouts', moneyPayoutsContract);
    describe('attempts', moneyAttemptsContract);
    describe('sender', moneySenderContract);
    describe('decisions', moneyDecisionsContract);
  });
}
