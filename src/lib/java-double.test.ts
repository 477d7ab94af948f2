import { describe, expect, it } from 'vitest';
import { javaDoubleToString } from './java-double.ts';

describe('javaDoubleToString', () => {
  it('prints doubles the way Java does (values from XPay’s vectors and the format boundaries)', () => {
    const cases: [number, string][] = [
      [50, '50.0'],
      [1, '1.0'],
      [100, '100.0'],
      [10.5, '10.5'],
      [0.0001, '1.0E-4'],
      [0.001, '0.001'],
      [0.00123, '0.00123'],
      [12345678.5, '1.23456785E7'],
      [1234567.5, '1234567.5'],
      [9999999, '9999999.0'],
      [1e7, '1.0E7'],
      [1e21, '1.0E21'],
      [1.5e300, '1.5E300'],
      [2.5, '2.5'],
      [3, '3.0'],
      [-0.0001, '-1.0E-4'],
      [-12.25, '-12.25'],
      [0, '0.0'],
      [-0, '-0.0'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Number.NaN, 'NaN'],
    ];
    for (const [value, java] of cases) expect(javaDoubleToString(value), String(value)).toBe(java);
  });
});
