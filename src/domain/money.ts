/**
 * Money at the edges: decimal strings in, bigint base units inside, decimal strings out.
 * Never rounds: a value that does not fit the token's decimals is rejected.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export type ParsedAmount =
  | { ok: true; base: bigint }
  | { ok: false; reason: 'not-a-positive-decimal' | 'too-many-decimals' };

/** Parses a positive decimal string ("10", "0.5", "12.340000") into base units of a token with `decimals`. */
export function parseAmount(text: string, decimals: number): ParsedAmount {
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, reason: 'not-a-positive-decimal' };
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return { ok: false, reason: 'too-many-decimals' };
  const base = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (base <= 0n) return { ok: false, reason: 'not-a-positive-decimal' };
  return { ok: true, base };
}

/**
 * Formats base units as a decimal string with at least two fraction digits and no trailing zeros
 * beyond them: 10_000000n (6 decimals) → "10.00", 1n → "0.000001".
 */
export function formatAmount(base: bigint, decimals: number): string {
  const negative = base < 0n;
  const abs = negative ? -base : base;
  const unit = 10n ** BigInt(decimals);
  const whole = abs / unit;
  let fraction = decimals > 0 ? (abs % unit).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Sums base-unit strings as stored in the database. */
export function sumBase(values: Iterable<string | bigint>): bigint {
  let total = 0n;
  for (const v of values) total += BigInt(v);
  return total;
}
