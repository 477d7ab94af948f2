import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isExactObject, JsonNumber, parseExactJson, plainDecimal, withNumbersAsText } from './exact-json.ts';

/** The parsed value with numbers turned back into numbers: must equal JSON.parse's. */
function asPlain(v: unknown): unknown {
  if (v instanceof JsonNumber) return Number(v.lexeme);
  if (Array.isArray(v)) return v.map(asPlain);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asPlain(x)]));
  return v;
}

describe('parseExactJson', () => {
  it('keeps each number as it was written', () => {
    const v = parseExactJson('{"a":50.0,"b":12345678901234567890,"c":1E2,"d":-0,"e":[0.0001,7]}');
    expect(isExactObject(v)).toBe(true);
    const o = v as Record<string, unknown>;
    expect((o.a as JsonNumber).lexeme).toBe('50.0');
    expect((o.b as JsonNumber).lexeme).toBe('12345678901234567890');
    expect((o.c as JsonNumber).lexeme).toBe('1E2');
    expect((o.d as JsonNumber).lexeme).toBe('-0');
    expect((o.b as JsonNumber).isInteger).toBe(true);
    expect((o.a as JsonNumber).isInteger).toBe(false);
    expect(withNumbersAsText(v)).toEqual({
      a: '50.0',
      b: '12345678901234567890',
      c: '100',
      d: '-0',
      e: ['0.0001', '7'],
    });
  });

  it('writes exponents out in plain decimals, exactly', () => {
    const cases: [string, string][] = [
      ['1.0E7', '10000000'],
      ['1.0E-4', '0.00010'],
      ['1e+21', '1000000000000000000000'],
      ['1.23456785E7', '12345678.5'],
      ['-2.5e-3', '-0.0025'],
      ['12e-1', '1.2'],
      ['5E0', '5'],
      ['2.50', '2.50'],
      ['7', '7'],
      ['1e101', '1e101'],
    ];
    for (const [lexeme, plain] of cases) expect(plainDecimal(lexeme), lexeme).toBe(plain);
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e90, max: 1e90 }), (d) => {
        const lexeme = d.toExponential();
        expect(Number(plainDecimal(lexeme))).toBe(d === 0 ? 0 : d);
      }),
      { seed: 13, numRuns: 500 },
    );
  });

  it('decodes strings, keeps the last of duplicate keys and treats __proto__ as a plain key, like JSON.parse', () => {
    const text = '{"s":"a\\"b\\u00e9\\n😀","k":1,"k":2,"__proto__":{"x":1}}';
    const v = parseExactJson(text) as Record<string, unknown>;
    expect(v.s).toBe('a"bé\n😀');
    expect((v.k as JsonNumber).lexeme).toBe('2');
    expect(Object.keys(v)).toEqual(Object.keys(JSON.parse(text)));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('accepts exactly what JSON.parse accepts, with the same values', () => {
    const texts = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v, null, 1)),
      fc.string({ maxLength: 30 }),
      fc
        .tuple(
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
          fc.nat(40),
          fc.string({ maxLength: 3 }),
        )
        .map(([t, i, s]) => t.slice(0, i) + s + t.slice(i)),
      fc.constantFrom(
        '01',
        '1.',
        '.5',
        '-',
        '+1',
        '1e',
        'tru',
        'nul',
        '[1,]',
        '{"a":1,}',
        ' 1 ',
        '"\t"',
        '1 2',
      ),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expect(() => parseExactJson(text)).toThrow(SyntaxError);
          return;
        }
        expect(asPlain(parseExactJson(text))).toEqual(expected);
      }),
      { seed: 13, numRuns: 2000 },
    );
  });
});
