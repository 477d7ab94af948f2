import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import {
  checkAllowlist,
  checkDailyPayouts,
  checkSinglePayout,
  limitsFor,
  needsApproval,
} from './payout-limits.ts';

const refusal = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof AppError ? `${e.code}: ${e.detail}` : String(e);
  }
};

describe('payout limits', () => {
  const global = {
    maxAmount: { USDT: '5000' },
    dailyAmount: { USDT: '20000' },
    approvalAbove: { USDT: '1000' },
  };

  it('lets a merchant’s own limits replace the global ones symbol by symbol', () => {
    expect(limitsFor(global, undefined, 'USDT')).toEqual({
      maxAmount: '5000',
      dailyAmount: '20000',
      approvalAbove: '1000',
    });
    expect(limitsFor(global, { maxAmount: { USDT: '50' } }, 'USDT')).toEqual({
      maxAmount: '50',
      dailyAmount: '20000',
      approvalAbove: '1000',
    });
    expect(limitsFor(global, { maxAmount: { USDC: '1' } }, 'USDC')).toEqual({
      maxAmount: '1',
      dailyAmount: null,
      approvalAbove: null,
    });
  });

  it('refuses with the contract’s messages, at the exact boundary', () => {
    const l = limitsFor(global, undefined, 'USDT');
    expect(refusal(() => checkSinglePayout(l, 5_000_000_000n, 6))).toBeNull();
    expect(refusal(() => checkSinglePayout(l, 5_000_000_001n, 6))).toBe(
      'payout_refused: The payout exceeds the limit for a single payout.',
    );
    expect(refusal(() => checkDailyPayouts(l, 19_000_000_000n, 1_000_000_000n, 6))).toBeNull();
    expect(refusal(() => checkDailyPayouts(l, 19_000_000_000n, 1_000_000_001n, 6))).toBe(
      'payout_refused: The payout exceeds the daily limit.',
    );
    expect(needsApproval(l, 1_000_000_000n, 6)).toBe(false);
    expect(needsApproval(l, 1_000_000_001n, 6)).toBe(true);
    expect(needsApproval(limitsFor({}, undefined, 'USDT'), 10n ** 30n, 6)).toBe(false);
  });

  it('checks the allowlist only where one is configured', () => {
    expect(refusal(() => checkAllowlist(null, 'TAny'))).toBeNull();
    expect(refusal(() => checkAllowlist(new Set(['TOk']), 'TOk'))).toBeNull();
    expect(refusal(() => checkAllowlist(new Set(['TOk']), 'TOther'))).toBe(
      'payout_refused: The receiveAddress is not on the allowlist.',
    );
  });
});
