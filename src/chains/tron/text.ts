/** Hex of UTF-8 text (java-tron's `message`/`resMessage` with visible=false), decoded. */
export function fromHexText(hex: unknown): string {
  const text = String(hex ?? '');
  return /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex').toString('utf8') : text;
}

/** A uint256 as one 64-digit ABI word. Throws RangeError outside 0 … 2^256 − 1. */
export function uint256(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new RangeError(`uint256 out of range: ${value}`);
  return value.toString(16).padStart(64, '0');
}

/** An amount of sun as TRX, without trailing zeros. */
export function formatTrx(sun: bigint): string {
  const whole = sun / 1_000_000n;
  const frac = (sun % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}
