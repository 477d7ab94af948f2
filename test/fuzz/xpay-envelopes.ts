import fc from 'fast-check';
import { nodeSdkRequestBody } from '../helpers/xpay-sdk.ts';
import { data, nextFresh } from './arbitraries.ts';
import type { FuzzWorld } from './world.ts';

/** An XPay-style POST built from parts, each of which may be mutated. */
export const xpayEnvelope = (w: FuzzWorld) =>
  fc
    .record({
      data: fc.oneof({ weight: 8, arbitrary: data }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }),
      who: fc.constantFrom('v3', 'v2'),
      token: fc.constantFrom<'right' | 'other' | 'interface' | 'unknown' | 'empty' | 'missing'>(
        'right',
        'right',
        'right',
        'right',
        'right',
        'right',
        'other',
        'interface',
        'unknown',
        'empty',
        'missing',
      ),
      sign: fc.constantFrom<'valid' | 'token-key' | 'random-hex' | 'garbage' | 'missing' | 'numbers'>(
        'valid',
        'valid',
        'valid',
        'token-key',
        'random-hex',
        'garbage',
        'missing',
        'numbers',
      ),
      timestamp: fc.oneof(
        { weight: 6, arbitrary: fc.constant<'now'>('now') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<'stale' | 'future' | 'ms' | 'text' | 'missing'>(
            'stale',
            'future',
            'ms',
            'text',
            'missing',
          ),
        },
      ),
      nonce: fc.oneof(
        { weight: 6, arbitrary: fc.uuid().map((u) => `${u}-${nextFresh()}`) },
        { weight: 1, arbitrary: fc.constantFrom('', 'n'.repeat(129), 'X-reused') },
      ),
      // now and then a body cut short
      cut: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(400) }),
    })
    .map((p) => {
      const who = p.who === 'v2' ? w.xv2 : w.xm;
      const now = Math.floor(w.h.clock.now() / 1000);
      const timestamp = {
        now,
        stale: now - 10_000,
        future: now + 10_000,
        ms: now * 1000,
        text: now,
        missing: now,
      }[p.timestamp];
      const asObject = typeof p.data === 'object' && p.data !== null && !Array.isArray(p.data);
      let body: Record<string, unknown>;
      let sdkSigned = true;
      try {
        body = JSON.parse(
          nodeSdkRequestBody(
            p.sign === 'token-key' ? who.token : who.webhookSecret,
            (asObject ? p.data : { v: p.data }) as Record<string, unknown>,
            {
              timestamp,
              nonce: p.nonce,
            },
          ),
        );
      } catch {
        // data the node SDK itself cannot sign (an array holding null): sent with a made-up sign
        sdkSigned = false;
        body = { sign: 'ab'.repeat(32), timestamp, nonce: p.nonce, data: p.data };
      }
      if (!asObject) body.data = p.data;
      if (p.sign === 'random-hex') body.sign = 'cd'.repeat(32);
      if (p.sign === 'garbage') body.sign = 'not a sign';
      if (p.sign === 'missing') delete body.sign;
      if (p.timestamp === 'missing') delete body.timestamp;
      if (p.timestamp === 'text') body.timestamp = String(timestamp);
      let text = JSON.stringify(body);
      // the same numbers written differently: a sign over "10" must not buy "10.0000000001"
      if (p.sign === 'numbers') text = text.replace(/"amount":"(\d+)"/, '"amount":$1.0000000001');
      if (p.cut !== null) text = text.slice(0, p.cut);
      const token = {
        right: who.token,
        other: (p.who === 'v2' ? w.xm : w.xv2).token,
        interface: w.m.token,
        unknown: 'x0123456789abcdef0123456789abcdef',
        empty: '',
        missing: undefined,
      }[p.token];
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token !== undefined) headers['x-api-token'] = token;
      // what the node SDK would send, untouched: its signature must hold whatever the data
      const genuine =
        sdkSigned &&
        asObject &&
        p.sign === 'valid' &&
        p.timestamp === 'now' &&
        p.token === 'right' &&
        p.cut === null;
      return { body: text, headers, genuine };
    });
