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

const NON_NEGATIVE = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal string scaled to `scale` fraction digits, or null when it has more. */
function scaled(text: string, scale: number): bigint | null {
  const match = NON_NEGATIVE.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > scale) return null;
  return BigInt(match[1] ?? '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
}

/**
 * The operator's handling fee (a non-negative decimal string such as "0.50") in base units of a
 * token with `decimals`. A fee finer than the token's smallest unit is cut to it: the merchant is
 * never charged more than configured. Throws RangeError on text that is not a decimal.
 */
export function feeToBase(fee: string, decimals: number): bigint {
  const match = NON_NEGATIVE.exec(fee);
  if (!match) throw new RangeError(`not a fee: "${fee}"`);
  const fraction = (match[2] ?? '').slice(0, decimals);
  return BigInt(match[1] ?? '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/**
 * Whether `base` units of a token with `decimals` are more than the decimal `limit` ("5000",
 * "0.5"), compared exactly whatever the limit's precision. Throws RangeError on a bad limit.
 */
export function exceedsDecimal(base: bigint, decimals: number, limit: string): boolean {
  const fractionDigits = (limit.split('.')[1] ?? '').length;
  const scale = Math.max(decimals, fractionDigits);
  const limitScaled = scaled(limit, scale);
  if (limitScaled === null) throw new RangeError(`not a decimal limit: "${limit}"`);
  return base * 10n ** BigInt(scale - decimals) > limitScaled;
}

/**
 * Parses a signed decimal amount ("+12.5", "-3", "7") into base units, exactly (no rounding,
 * never zero): the amount of an operator's ledger adjustment.
 */
export function parseSignedAmount(text: string, decimals: number): ParsedAmount {
  const sign = text.startsWith('-') ? -1n : 1n;
  const body = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  const parsed = parseAmount(body, decimals);
  return parsed.ok ? { ok: true, base: sign * parsed.base } : parsed;
}
