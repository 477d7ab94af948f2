/**
 * JSON parsed without losing what a number was written as. `JSON.parse` turns `50.0` into `50` and
 * `12345678901234567890` into `12345678901234567000`; a signature rule that renders numbers the way
 * Java does (XPay's: `50.0` stays `50.0`, integers keep every digit) needs the text. Everything else
 * is exactly JSON.parse's: the same grammar (RFC 8259), the same string decoding, the last of
 * duplicate keys wins, and `__proto__` is an ordinary key.
 */

/** A JSON number as written in the source. */
export class JsonNumber {
  constructor(readonly lexeme: string) {}

  /** Whether the lexeme is an integer (no fraction, no exponent). */
  get isInteger(): boolean {
    return !/[.eE]/.test(this.lexeme);
  }
}

export type ExactJson = null | boolean | string | JsonNumber | ExactJson[] | ExactObject;
export interface ExactObject {
  [key: string]: ExactJson;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the JSON grammar forbids raw control characters in strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * Parses JSON text keeping number lexemes (see the file comment). Throws SyntaxError where
 * JSON.parse would. Recursive: refuse deeply nested text before calling it (json-depth.ts).
 */
export function parseExactJson(text: string): ExactJson {
  let at = 0;
  const fail = (): never => {
    throw new SyntaxError(`Unexpected token in JSON at position ${at}`);
  };
  const space = () => {
    SPACE.lastIndex = at;
    SPACE.exec(text);
    at = SPACE.lastIndex;
  };
  const string = (): string => {
    STRING.lastIndex = at;
    const m = STRING.exec(text);
    if (!m) return fail();
    at = STRING.lastIndex;
    return JSON.parse(m[0]) as string;
  };
  const value = (): ExactJson => {
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      const out: ExactObject = {};
      space();
      if (text[at] === '}') {
        at++;
        return out;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        const key = string();
        space();
        if (text[at] !== ':') fail();
        at++;
        Object.defineProperty(out, key, {
          value: value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === '}') {
          at++;
          return out;
        }
        fail();
      }
    }
    if (c === '[') {
      at++;
      const out: ExactJson[] = [];
      space();
      if (text[at] === ']') {
        at++;
        return out;
      }
      for (;;) {
        out.push(value());
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at] === ']') {
          at++;
          return out;
        }
        fail();
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', at)) {
      at += 4;
      return true;
    }
    if (text.startsWith('false', at)) {
      at += 5;
      return false;
    }
    if (text.startsWith('null', at)) {
      at += 4;
      return null;
    }
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) return fail();
    at = NUMBER.lastIndex;
    return new JsonNumber(m[0]);
  };
  const result = value();
  space();
  if (at !== text.length) fail();
  return result;
}

/** Whether a parsed value is a JSON object (not an array, not null). */
export function isExactObject(v: ExactJson | undefined): v is ExactObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);
}

/** Exponents beyond this are left as written (their plain form would be absurdly long). */
const MAX_SHIFT = 100;

/**
 * A number's lexeme in plain decimal notation, exactly: `1.0E7` → `10000000`, `1.0E-4` →
 * `0.00010`, `2.50` → `2.50` (no exponent: unchanged). Never rounds. A lexeme whose exponent is
 * beyond ±100 is returned as written.
 */
export function plainDecimal(lexeme: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/.exec(lexeme);
  if (!m) return lexeme;
  const [, sign, whole = '', fraction = '', exp = '0'] = m;
  const shift = Number(exp);
  if (Math.abs(shift) > MAX_SHIFT) return lexeme;
  const digits = whole + fraction;
  const point = whole.length + shift;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits.padEnd(point, '0')}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * The plain value of parsed JSON for code that reads fields: every number becomes text, by
 * default its exact lexeme in plain decimal notation ({@link plainDecimal}), so an amount keeps its
 * digits (`10.50`, `12345678901234567890`, Java's `1.0E7` as `10000000`) instead of becoming the
 * nearest double. `text` chooses another reading (what a signature rule saw, for instance).
 */
export function withNumbersAsText(
  v: ExactJson,
  text: (n: JsonNumber) => string = (n) => plainDecimal(n.lexeme),
): unknown {
  if (v instanceof JsonNumber) return text(v);
  if (Array.isArray(v)) return v.map((item) => withNumbersAsText(item, text));
  if (isExactObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v))
      Object.defineProperty(out, k, {
        value: withNumbersAsText(item, text),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return v;
}
