import { describe, expect, it } from 'vitest';
import { createKeyRing } from '../../keys/key-ring.ts';
import { addressOfKey, addressWord, toBase58, toHex20, toHex41, wordToHex20 } from './address.ts';

/** Verified pairs of chains.md A.2. */
const PAIRS: [string, string][] = [
  ['41a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['41eca9bc828a3005b9a3b909f2cc5c2a54794de05f', 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'],
  ['4142a1e39aefa49290f2b3f9ed688d7cecf86cd6e0', 'TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs'],
  ['413487b63d30b5b2c87fb7ffa8bcfade38eaac1abe', 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8'],
  ['416e3b44b96104b26f84057974a1f0c9880f7c9b13', 'TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre'],
  ['41ec20315a879c48f5e3a6a1c9826d5225f8b658b8', 'TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx'],
  ['41dd791d6b49e190062d650e6a23c575510d35f2f9', 'TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp'],
];

describe('TRON address spellings', () => {
  it.each(PAIRS)('converts %s ↔ %s both ways', (hex, base58) => {
    expect(toBase58(hex)).toBe(base58);
    expect(toHex41(base58)).toBe(hex);
    expect(toHex20(base58)).toBe(hex.slice(2));
    expect(toBase58(hex.slice(2))).toBe(base58); // the 20-byte log form
    expect(toBase58(`0x${hex.slice(2).toUpperCase()}`)).toBe(base58); // the EVM form
  });

  it('reads the address in an ABI word or topic from its last 20 bytes, whatever the padding holds', () => {
    // the recipient word of the real USDT transfer in chains.md A.4 carries `41` in its padding
    expect(wordToHex20('000000000000000000000041ec20315a879c48f5e3a6a1c9826d5225f8b658b8')).toBe(
      'ec20315a879c48f5e3a6a1c9826d5225f8b658b8',
    );
    expect(addressWord('TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx')).toBe(
      '000000000000000000000000ec20315a879c48f5e3a6a1c9826d5225f8b658b8',
    );
  });

  it('refuses what is not a TRON address (a bad checksum included)', () => {
    expect(() => toHex41('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toThrow(/not a TRON address/);
    expect(() => toHex41('hello')).toThrow(/not a TRON address/);
    expect(() => toHex41('42a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toThrow(/not a TRON address/);
  });

  it("agrees with the key ring: tronweb's address of the hot wallet key is the address Kassa derives", () => {
    const hot = createKeyRing(
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
    ).hotWallet('TRON');
    expect(addressOfKey(hot.privateKey)).toBe(hot.address);
  });
});
