import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { zh } from './zh.ts';

const flat = (o: object, prefix = ''): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'string' ? [[prefix + k, v] as [string, string]] : flat(v as object, `${prefix}${k}.`),
  );
const slotsOf = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Keys whose text is the same in both languages on purpose: names, codes and symbols. */
const SAME = new Set(['brand', 'dash', 'order.uid', 'payouts.position']);

describe('dashboard strings', () => {
  it('Chinese has every English key with the same {slots}', () => {
    const zhMap = new Map(flat(zh));
    for (const [key, text] of flat(en)) {
      expect(zhMap.has(key), key).toBe(true);
      expect(slotsOf(zhMap.get(key) as string), key).toEqual(slotsOf(text));
    }
    expect(flat(zh).length).toBe(flat(en).length);
  });

  it('Chinese is translated, not copied (apart from names and symbols)', () => {
    const zhMap = new Map(flat(zh));
    const copied = flat(en)
      .filter(([k, v]) => zhMap.get(k) === v && !SAME.has(k))
      .map(([k]) => k);
    expect(copied).toEqual([]);
  });
});
