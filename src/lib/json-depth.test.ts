import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from './json-depth.ts';

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 2)).toBe(true);
    expect(jsonDepthExceeds('{"a":"[[[[[[[[{{{{"}', 1)).toBe(false);
    expect(jsonDepthExceeds('{"a":"\\"[[[[","b":[]}', 2)).toBe(false);
    expect(jsonDepthExceeds('{"a":"\\\\","b":[[]]}', 2)).toBe(true);
    expect(jsonDepthExceeds('"just a string"', 0)).toBe(false);
  });

  it('answers for a million levels without recursing, and for text that is not JSON', () => {
    expect(jsonDepthExceeds('['.repeat(1_000_000), 64)).toBe(true);
    expect(jsonDepthExceeds(']]]]{', 1)).toBe(false);
  });
});
