/**
 * Java's `Double.toString(d)` (JDK 19 and later, which agrees with JDK 17 on every value XPay's
 * vectors use): the shortest digits that round-trip, written
 * - as a plain decimal with at least one fraction digit when 10^-3 <= |d| < 10^7 (`50.0`, `0.001`,
 *   `1234567.5`);
 * - otherwise as `d.dddE±n` with at least one fraction digit and no `+` (`1.0E-4`, `1.23456785E7`,
 *   `1.0E21`);
 * - `0.0` / `-0.0`, `NaN`, `Infinity` / `-Infinity`.
 * JavaScript's own number-to-text also yields the shortest round-trip digits, so only the layout
 * differs. One known gap: where the shortest form has a single digit, JDK 19+ may prefer a closer
 * two-digit one, which happens only among subnormal doubles (`Double.MIN_VALUE` prints `4.9E-324`,
 * here `5.0E-324`): nowhere near an amount.
 */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Number.POSITIVE_INFINITY) return 'Infinity';
  if (d === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const sign = d < 0 ? '-' : '';
  const abs = Math.abs(d);
  // toExponential() without an argument gives exactly the digits needed to round-trip.
  const [mantissa = '', exp = '0'] = abs.toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const e = Number(exp);
  if (abs >= 1e-3 && abs < 1e7) {
    if (e >= 0) {
      const whole = digits.slice(0, e + 1).padEnd(e + 1, '0');
      const fraction = digits.slice(e + 1) || '0';
      return `${sign}${whole}.${fraction}`;
    }
    return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${e}`;
}
