import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode } from './base32.ts';

// RFC 4648 section 10, without the padding authenticator apps leave out.
const VECTORS: [string, string][] = [
  ['', ''],
  ['f', 'MY'],
  ['fo', 'MZXQ'],
  ['foo', 'MZXW6'],
  ['foob', 'MZXW6YQ'],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI'],
];

describe('base32', () => {
  it.each(VECTORS)('encodes %j as the RFC 4648 test vector %s', (plain, encoded) => {
    expect(base32Encode(Buffer.from(plain))).toBe(encoded);
  });

  it.each(VECTORS)('decodes %j back from %s, also padded, spaced and in lower case', (plain, encoded) => {
    expect(base32Decode(encoded).toString()).toBe(plain);
    const padded = encoded.padEnd(Math.ceil(encoded.length / 8) * 8, '=');
    expect(base32Decode(padded.toLowerCase().replace(/(.{4})/g, '$1 ')).toString()).toBe(plain);
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => base32Decode('MZXW1')).toThrow(/not a base32 character/);
  });
});
