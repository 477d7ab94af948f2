import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { applyMovement, insufficientFunds, payoutDebit, payoutFreeze, payoutRelease } from './ledger.ts';

describe('ledger movements', () => {
  it('freeze, then debit or release, moves money between available and frozen and out', () => {
    const start = { available: 100n, frozen: 0n };
    const frozen = applyMovement(start, payoutFreeze(30n));
    expect(frozen).toEqual({ available: 70n, frozen: 30n });
    expect(applyMovement(frozen, payoutDebit(30n))).toEqual({ available: 70n, frozen: 0n });
    expect(applyMovement(frozen, payoutRelease(30n))).toEqual({ available: 100n, frozen: 0n });
  });

  it('never lets either part go below zero', () => {
    expect(() => applyMovement({ available: 10n, frozen: 0n }, payoutFreeze(11n))).toThrow(AppError);
    expect(() => applyMovement({ available: 10n, frozen: 5n }, payoutDebit(6n))).toThrow(/below zero/);
  });

  it('words a shortfall as XPay clients expect it', () => {
    expect(
      insufficientFunds({ available: 5_000_000n, amountBase: 10_000_000n, feeBase: 500_000n, decimals: 6 })
        .detail,
    ).toBe('Insufficient funds. balance: 5.00 Total required: 10.50 (10.00 amount + 0.50 fee).');
  });
});
