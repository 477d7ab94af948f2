import { describe, expect, it } from 'vitest';
import { exceedsDecimal, feeToBase, formatAmount, parseAmount, parseSignedAmount } from './money.ts';

describe('parseAmount', () => {
  it('parses decimal strings into exact base units', () => {
    expect(parseAmount('10.5', 6)).toEqual({ ok: true, base: 10_500_000n });
    expect(parseAmount('0.000001', 6)).toEqual({ ok: true, base: 1n });
    expect(parseAmount('12.340000', 6)).toEqual({ ok: true, base: 12_340_000n });
    expect(parseAmount('123456789.123456789012345678', 18)).toEqual({
      ok: true,
      base: 123456789123456789012345678n,
    });
  });

  it('rejects more fraction digits than the token has, instead of rounding', () => {
    expect(parseAmount('0.0000001', 6)).toEqual({ ok: false, reason: 'too-many-decimals' });
    expect(parseAmount('1.5', 0)).toEqual({ ok: false, reason: 'too-many-decimals' });
  });

  it('rejects zero, signs, exponents, empty parts and garbage', () => {
    for (const bad of ['0', '0.000', '-1', '+1', '1e6', '.5', '1.', '', ' 1', '1,5', 'NaN', '0x10']) {
      expect(parseAmount(bad, 6)).toEqual({ ok: false, reason: 'not-a-positive-decimal' });
    }
  });
});

describe('formatAmount', () => {
  it('shows at least two decimals and never loses precision', () => {
    expect(formatAmount(10_000_000n, 6)).toBe('10.00');
    expect(formatAmount(10_500_000n, 6)).toBe('10.50');
    expect(formatAmount(1n, 6)).toBe('0.000001');
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001');
    expect(formatAmount(5n, 0)).toBe('5.00');
  });

  it('round-trips with parseAmount', () => {
    for (const base of [1n, 999_999n, 10n ** 24n + 7n]) {
      const parsed = parseAmount(formatAmount(base, 18), 18);
      expect(parsed).toEqual({ ok: true, base });
    }
  });
});

describe('feeToBase', () => {
  it('converts the configured fee exactly, and cuts a fee finer than the token to its smallest unit', () => {
    expect(feeToBase('0.50', 6)).toBe(500_000n);
    expect(feeToBase('0.00', 18)).toBe(0n);
    expect(feeToBase('1.2345678', 6)).toBe(1_234_567n);
    expect(() => feeToBase('-1', 6)).toThrow(RangeError);
  });
});

describe('exceedsDecimal', () => {
  it('compares base units with a decimal limit exactly, whatever either precision', () => {
    expect(exceedsDecimal(5_000_000_000n, 6, '5000')).toBe(false);
    expect(exceedsDecimal(5_000_000_001n, 6, '5000')).toBe(true);
    expect(exceedsDecimal(10n ** 18n, 18, '0.999999999999999999')).toBe(true);
    expect(exceedsDecimal(1n, 0, '0.5')).toBe(true);
    expect(exceedsDecimal(0n, 6, '0')).toBe(false);
  });
});

describe('parseSignedAmount', () => {
  it('parses top-ups and corrections exactly, and refuses zero and excess precision', () => {
    expect(parseSignedAmount('+12.5', 6)).toEqual({ ok: true, base: 12_500_000n });
    expect(parseSignedAmount('-3', 6)).toEqual({ ok: true, base: -3_000_000n });
    expect(parseSignedAmount('7', 2)).toEqual({ ok: true, base: 700n });
    expect(parseSignedAmount('-0', 6).ok).toBe(false);
    expect(parseSignedAmount('1.0000001', 6)).toEqual({ ok: false, reason: 'too-many-decimals' });
    expect(parseSignedAmount('--1', 6).ok).toBe(false);
  });
});
