import { describe, expect, it } from 'vitest';
import { en } from './i18n/en.ts';
import { zh } from './i18n/zh.ts';
import { fill, pickLanguage } from './language.ts';

describe('page language', () => {
  it('takes ?lang= first, in any common spelling', () => {
    expect(pickLanguage('zh', 'en-US')).toBe('zh');
    expect(pickLanguage('zh-TW', undefined)).toBe('zh');
    expect(pickLanguage('en', 'zh-CN,zh;q=0.9')).toBe('en');
  });

  it('falls back to Accept-Language by q-value, then to English', () => {
    expect(pickLanguage(undefined, 'zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(pickLanguage(undefined, 'fr-FR, en;q=0.5, zh;q=0.8')).toBe('zh');
    expect(pickLanguage(undefined, 'de, en-GB;q=0.7')).toBe('en');
    expect(pickLanguage('xx', 'zh;q=0, fr')).toBe('en');
    expect(pickLanguage(undefined, ';;;q=abc,,')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
  });

  it('fills slots and leaves unknown ones visible', () => {
    expect(fill('Pay {amount} {symbol} {x}', { amount: '1.5', symbol: 'USDT' })).toBe('Pay 1.5 USDT {x}');
  });
});

describe('strings', () => {
  const flat = (o: object, prefix = ''): [string, string][] =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === 'string' ? [[prefix + k, v] as [string, string]] : flat(v as object, `${prefix}${k}.`),
    );
  const slotsOf = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it('Chinese has every English key with the same {slots}', () => {
    const zhMap = new Map(flat(zh));
    for (const [key, text] of flat(en)) {
      expect(zhMap.has(key), key).toBe(true);
      expect(slotsOf(zhMap.get(key) as string), key).toEqual(slotsOf(text));
    }
  });

  it('Chinese is translated, not copied (apart from names and standards)', () => {
    const same = flat(en)
      .filter(([k, v]) => (new Map(flat(zh)).get(k) as string) === v)
      .map(([k]) => k);
    expect(same.filter((k) => !/^(standards|networks)\./.test(k))).toEqual([]);
  });
});
