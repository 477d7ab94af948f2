import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { javaSdkQuery } from '../helpers/xpay-sdk.ts';
import { anyText, chain, clientIp, nextFresh, orderId, symbol } from './arbitraries.ts';
import { useExchange } from './exchange.ts';
import { useFuzzWorld } from './world.ts';
import { xpayEnvelope as xpayEnvelopes } from './xpay-envelopes.ts';

/**
 * Property-based fuzzing of the XPay-style requests of merchants in XPay mode (issue 13): mutated
 * XPay envelopes, tokens, signs and queries, in process on a real migrated database. Every answer
 * is checked by `exchange` (exchange.ts: XPay's envelope, never an internal error, nothing written
 * when refused). Fixed seeds and bounded runs.
 */
const SEED = 1405;
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 150);

const w = useFuzzWorld();
const exchange = useExchange(w);
const xpayEnvelope = xpayEnvelopes(w);

describe('fuzzing the XPay-style requests of merchants in XPay mode', () => {
  for (const path of ['/v1/order/createCollection', '/v1/order/createPayout']) {
    it(`${path}: mutated XPay envelopes always get XPay's envelope, never an internal error, write nothing when refused`, async () => {
      await fc.assert(
        fc.asyncProperty(xpayEnvelope, clientIp, async (e, ip) => {
          const answer = await exchange(
            path,
            { method: 'POST', headers: e.headers, body: e.body },
            { envelope: true, ip },
          );
          const { msg } = JSON.parse(answer.text) as { msg: string };
          if (e.genuine) expect(msg, e.body).not.toMatch(/^(Signature error|JSON parsing failed)/);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }

  it('XPay-style GETs: status, getBalance, getCryptoAddress, supportSymbols with random queries, tokens and signs', async () => {
    const getCase = fc.record({
      path: fc.oneof(
        fc.constantFrom(
          '/v1/merchant/getBalance',
          '/v1/merchant/getCryptoAddress',
          '/v1/symbol/supportSymbols',
        ),
        orderId.map((id) => `/v1/order/status/${encodeURIComponent(String(id))}`),
      ),
      token: fc.constantFrom<'right' | 'interface' | 'unknown' | 'missing'>(
        'right',
        'right',
        'interface',
        'unknown',
        'missing',
      ),
      fields: fc.dictionary(
        fc.constantFrom('symbol', 'chain', 'uid', 'x'),
        fc.oneof(symbol, chain, anyText),
        { maxKeys: 3 },
      ),
      signed: fc.constantFrom<'java' | 'none' | 'bad'>('java', 'java', 'none', 'bad'),
      nonce: fc.uuid(),
    });
    await fc.assert(
      fc.asyncProperty(getCase, async (g) => {
        const fields = Object.fromEntries(Object.entries(g.fields).map(([k, v]) => [k, String(v)]));
        const now = Math.floor(w.h.clock.now() / 1000);
        let query = new URLSearchParams(fields).toString();
        if (g.signed !== 'none') {
          query = javaSdkQuery(w.xm.webhookSecret, fields, {
            timestamp: now,
            nonce: `${g.nonce}-${nextFresh()}`,
          });
          if (g.signed === 'bad') query = query.replace(/sign=[0-9a-f]+/, `sign=${'ef'.repeat(32)}`);
        }
        const token = {
          right: w.xm.token,
          interface: w.m.token,
          unknown: 'nobody-token',
          missing: undefined,
        }[g.token];
        const headers: Record<string, string> = token === undefined ? {} : { 'x-api-token': token };
        await exchange(`${g.path}${query ? `?${query}` : ''}`, { headers }, { envelope: true });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
