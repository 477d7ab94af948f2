import { describe, expect, it } from 'vitest';
import { base32Decode } from './base32.ts';
import { hotp, otpauthUri, type TotpAlgorithm, totp, verifyTotp } from './totp.ts';

/**
 * RFC 6238 Appendix B: 8-digit TOTPs with X = 30 s and T0 = 0. The seeds are the ASCII digits
 * "1234567890" repeated to the hash's length (20, 32 and 64 bytes), as the RFC's reference code has
 * them.
 */
const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const RFC6238: [number, TotpAlgorithm, string][] = [
  [59, 'sha1', '94287082'],
  [59, 'sha256', '46119246'],
  [59, 'sha512', '90693936'],
  [1111111109, 'sha1', '07081804'],
  [1111111109, 'sha256', '68084774'],
  [1111111109, 'sha512', '25091201'],
  [1111111111, 'sha1', '14050471'],
  [1111111111, 'sha256', '67062674'],
  [1111111111, 'sha512', '99943326'],
  [1234567890, 'sha1', '89005924'],
  [1234567890, 'sha256', '91819424'],
  [1234567890, 'sha512', '93441116'],
  [2000000000, 'sha1', '69279037'],
  [2000000000, 'sha256', '90698825'],
  [2000000000, 'sha512', '38618901'],
  [20000000000, 'sha1', '65353130'],
  [20000000000, 'sha256', '77737706'],
  [20000000000, 'sha512', '47863826'],
];

// RFC 4226 Appendix D: HOTP of the 20-byte seed for counters 0..9, 6 digits.
const RFC4226 = [
  '755224',
  '287082',
  '359152',
  '969429',
  '338314',
  '254676',
  '287922',
  '162583',
  '399871',
  '520489',
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC6238)('at %i s with %s gives %s', (seconds, algorithm, code) => {
    expect(totp(SEEDS[algorithm], seconds * 1000, { algorithm, digits: 8 })).toBe(code);
  });

  it('is HOTP of the RFC 4226 test vectors', () => {
    expect(RFC4226.map((_, i) => hotp(SEEDS.sha1, BigInt(i)))).toEqual(RFC4226);
  });

  it('accepts the code of the previous and the next step, not two steps away', () => {
    const key = SEEDS.sha1;
    const now = 1111111109_000;
    expect(verifyTotp(key, totp(key, now), now)).toBe(37037036n);
    expect(verifyTotp(key, totp(key, now - 30_000), now)).toBe(37037035n);
    expect(verifyTotp(key, totp(key, now + 30_000), now)).toBe(37037037n);
    expect(verifyTotp(key, totp(key, now - 60_000), now)).toBeNull();
  });

  it('refuses a code of a step already used, so a code works once', () => {
    const key = SEEDS.sha1;
    const now = 1234567890_000;
    const used = verifyTotp(key, totp(key, now), now);
    expect(used).not.toBeNull();
    expect(verifyTotp(key, totp(key, now), now + 5_000, { notAfterStep: used })).toBeNull();
    expect(verifyTotp(key, totp(key, now + 30_000), now + 30_000, { notAfterStep: used })).toBe(
      (used as bigint) + 1n,
    );
  });

  it('refuses anything but the right number of digits, and ignores spaces people type', () => {
    const key = SEEDS.sha1;
    const now = 59_000;
    const code = totp(key, now);
    expect(verifyTotp(key, `${code.slice(0, 3)} ${code.slice(3)}`, now)).not.toBeNull();
    expect(verifyTotp(key, `${code}0`, now)).toBeNull();
    expect(verifyTotp(key, 'abcdef', now)).toBeNull();
    expect(verifyTotp(key, '', now)).toBeNull();
  });

  it('writes an otpauth URI whose secret decodes to the key', () => {
    const text = otpauthUri(SEEDS.sha1, 'Kassa shop', 'ops@shop.example');
    expect(text.startsWith('otpauth://totp/Kassa%20shop:ops%40shop.example?')).toBe(true);
    const uri = new URL(text);
    expect(base32Decode(uri.searchParams.get('secret') as string)).toEqual(SEEDS.sha1);
    expect(uri.searchParams.get('issuer')).toBe('Kassa shop');
  });
});
