import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkoutLinkSign, signData } from '../helpers/signing.ts';
import { anyText, chain, clientIp, forwardedFor, orderId, symbol } from './arbitraries.ts';
import { useExchange } from './exchange.ts';
import { useFuzzWorld } from './world.ts';

/**
 * Property-based fuzzing of the GET endpoints (issue 14): the payment link, order status, the
 * checkout page and its state, supported symbols, with random queries, signs and headers, in
 * process on a real migrated database. Every answer is checked by `exchange` (exchange.ts). Fixed
 * seeds and bounded runs.
 */
const SEED = 1405;
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 150);

const w = useFuzzWorld();
const exchange = useExchange(w);

/** A sign for the GET endpoints: the merchant's, the checkout link's, another merchant's, or junk. */
const querySign = (id: string) =>
  fc.oneof(
    fc.constant(signData(w.m.token, id)),
    fc.constant(checkoutLinkSign(w.m.token, id)),
    fc.constant(signData(w.other.token, id)),
    fc.constant(signData(w.m.token, id).toUpperCase()),
    fc.constantFrom('', 'zz', 'ab'.repeat(32), 'ab'.repeat(33)),
    anyText,
  );
const queryCase = orderId.chain((id) =>
  fc.record({
    orderId: fc.option(fc.constant(id)),
    sign: fc.option(querySign(typeof id === 'string' ? id : '')),
    extra: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), anyText, { maxKeys: 3 })),
    lang: fc.option(fc.oneof(fc.constantFrom('en', 'zh', 'xx'), anyText)),
    merchantHeader: fc.option(fc.constantFrom(w.m.merchantId, w.other.merchantId, 'mch_nobody', '')),
  }),
);

function query(q: {
  orderId: string | null;
  sign: string | null;
  extra: Record<string, string> | null;
  lang: string | null;
}): string {
  const params = new URLSearchParams();
  if (q.orderId !== null) params.set('orderId', q.orderId);
  if (q.sign !== null) params.set('sign', q.sign);
  if (q.lang !== null) params.set('lang', q.lang);
  for (const [k, v] of Object.entries(q.extra ?? {})) params.append(k, v);
  return params.toString();
}

describe('fuzzing the GET endpoints', () => {
  for (const path of ['/v1/order/pay', '/v1/order/getOrderStatus', '/checkout/state']) {
    it(`${path}: random queries, signs and headers`, async () => {
      await fc.assert(
        fc.asyncProperty(queryCase, clientIp, async (q, ip) => {
          const headers: Record<string, string> =
            q.merchantHeader === null ? {} : { 'x-merchant-id': q.merchantHeader };
          await exchange(`${path}?${query(q)}`, { headers }, { envelope: true, ip });
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }

  it('/v1/order/status/{orderId}: random ids (encoded as they come), signs and queries', async () => {
    await fc.assert(
      fc.asyncProperty(queryCase, async (q) => {
        const id = q.orderId ?? '';
        const rest = query({ ...q, orderId: null });
        await exchange(`/v1/order/status/${encodeURIComponent(id)}?${rest}`, {}, { envelope: true });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('/checkout: random queries answer an HTML page, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(queryCase, async (q) => {
        const answer = await exchange(`/checkout?${query(q)}`, {}, { envelope: false });
        expect(answer.contentType).toContain('text/html');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('/v1/symbol/supportSymbols: random filters and client addresses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(chain), fc.option(symbol), clientIp, forwardedFor, async (c, s, ip, xff) => {
        const params = new URLSearchParams();
        if (typeof c === 'string') params.set('chain', c);
        if (typeof s === 'string') params.set('symbol', s);
        const headers: Record<string, string> = xff === null ? {} : { 'x-forwarded-for': xff };
        const answer = await exchange(
          `/v1/symbol/supportSymbols?${params}`,
          { headers },
          { envelope: true, ip },
        );
        expect(answer.status).toBe(200);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
