import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { anyText, data, nextFresh } from './arbitraries.ts';
import type { FuzzWorld } from './world.ts';

/** The signed POST envelopes of the interface, and bodies that are not envelopes, for fuzzing. */

type SignMode = 'valid' | 'other-merchant' | 'random-hex' | 'garbage' | 'missing' | 'uppercase' | 'stringify';
const signMode = fc.constantFrom<SignMode>(
  'valid',
  'valid',
  'valid',
  'other-merchant',
  'random-hex',
  'garbage',
  'missing',
  'uppercase',
  'stringify',
);

/** A POST envelope built from parts, each of which may be mutated. */
export const envelopeText = (w: FuzzWorld) =>
  fc
    .record({
      data: fc.oneof({ weight: 8, arbitrary: data }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }),
      who: fc.constantFrom('v3', 'v2'),
      sign: signMode,
      timestamp: fc.oneof(
        { weight: 6, arbitrary: fc.constant<'now'>('now') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<'stale' | 'future' | 'string' | 'float' | 'missing'>(
            'stale',
            'future',
            'string',
            'float',
            'missing',
          ),
        },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
      ),
      nonce: fc.oneof(
        { weight: 6, arbitrary: fc.uuid().map((u) => `${u}-${nextFresh()}`) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('', 'n'.repeat(129), 7, null, 'K-reused') },
        { weight: 1, arbitrary: anyText },
      ),
      pretty: fc.boolean(),
      extraTop: fc.option(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      ),
      merchantHeader: fc.constantFrom<'none' | 'right' | 'other' | 'junk'>(
        'none',
        'none',
        'right',
        'other',
        'junk',
      ),
    })
    .map((p) => {
      const who = p.who === 'v2' ? w.v2 : w.m;
      const dataText = JSON.stringify(p.data, null, p.pretty ? 2 : undefined) ?? 'null';
      const hmac = (token: string, text: string) => createHmac('sha256', token).update(text).digest('hex');
      const sign: unknown = {
        valid: hmac(who.token, dataText),
        'other-merchant': hmac(w.other.token, dataText),
        'random-hex': 'ab'.repeat(32),
        garbage: 'not a sign',
        missing: undefined,
        uppercase: hmac(who.token, dataText).toUpperCase(),
        stringify: hmac(who.token, JSON.stringify(p.data) ?? 'null'),
      }[p.sign];
      const now = Math.floor(w.h.clock.now() / 1000);
      const timestamp =
        p.timestamp === 'now'
          ? now
          : p.timestamp === 'stale'
            ? now - 10_000
            : p.timestamp === 'future'
              ? now + 10_000
              : p.timestamp === 'string'
                ? String(now)
                : p.timestamp === 'float'
                  ? now + 0.5
                  : p.timestamp === 'missing'
                    ? undefined
                    : p.timestamp;
      const parts: string[] = [];
      if (sign !== undefined) parts.push(`"sign":${JSON.stringify(sign)}`);
      if (timestamp !== undefined) parts.push(`"timestamp":${JSON.stringify(timestamp)}`);
      if (p.nonce !== undefined) parts.push(`"nonce":${JSON.stringify(p.nonce)}`);
      parts.push(`"data":${dataText}`);
      for (const [k, v] of Object.entries(p.extraTop ?? {}))
        parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (p.merchantHeader === 'right') headers['x-merchant-id'] = who.merchantId;
      if (p.merchantHeader === 'other') headers['x-merchant-id'] = w.other.merchantId;
      if (p.merchantHeader === 'junk') headers['x-merchant-id'] = 'mch_nobody';
      return { body: `{${parts.join(',')}}`, headers };
    });

/** Bodies that are not well-formed envelopes at all. */
export const rawBody = (w: FuzzWorld) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v) ?? ''),
    fc.integer({ min: 65, max: 20_000 }).map((n) => `{"data":${'['.repeat(n)}${']'.repeat(n)}}`),
    // A complete envelope (bogus sign) whose data nests deep: what reaches the signature check.
    fc
      .tuple(fc.integer({ min: 65, max: 20_000 }), fc.constantFrom('[', '{"a":'))
      .map(
        ([n, open]) =>
          `{"sign":"${'ab'.repeat(32)}","timestamp":${Math.floor(w.h.clock.now() / 1000)},"nonce":"deep","data":{"x":${open.repeat(n)}1${(open === '[' ? ']' : '}').repeat(n)}}}`,
      ),
    fc.constantFrom('', '{', '{"sign":', 'null', '[]', '"x"', '{"data":{}}', `{"a":"${'x'.repeat(70_000)}"}`),
    envelopeText(w).chain((e) =>
      fc.integer({ min: 0, max: Math.max(0, e.body.length - 1) }).map((cut) => e.body.slice(0, cut)),
    ),
  );
