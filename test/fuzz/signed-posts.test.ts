import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientIp, forwardedFor } from './arbitraries.ts';
import { envelopeText as envelopes, rawBody as rawBodies } from './envelopes.ts';
import { useExchange } from './exchange.ts';
import { useFuzzWorld } from './world.ts';

/**
 * Property-based fuzzing of the signed POST endpoints (issue 14): mutated envelopes, headers and
 * bodies that are not envelopes at all, in process on a real migrated database. Every answer is
 * checked by `exchange` (exchange.ts: never a 5xx, always the envelope, a known refusal, nothing
 * written when refused). Fixed seeds and bounded runs, so a failure reproduces and the suite's time
 * stays bounded.
 */
const SEED = 1405;
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 150);

const w = useFuzzWorld();
const exchange = useExchange(w);
const envelopeText = envelopes(w);
const rawBody = rawBodies(w);

describe('fuzzing the signed POST endpoints', () => {
  for (const path of ['/v1/order/createCollection', '/v1/order/createPayout', '/v1/merchant/getBalance']) {
    it(`${path}: mutated envelopes never get a 5xx, always an envelope, write nothing when refused`, async () => {
      await fc.assert(
        fc.asyncProperty(envelopeText, clientIp, forwardedFor, async (e, ip, xff) => {
          const headers = xff === null ? e.headers : { ...e.headers, 'x-forwarded-for': xff };
          await exchange(path, { method: 'POST', headers, body: e.body }, { envelope: true, ip });
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it(`${path}: bodies that are not envelopes are refused cleanly`, async () => {
      await fc.assert(
        fc.asyncProperty(
          rawBody,
          fc.constantFrom('application/json', 'text/plain', ''),
          async (body, type) => {
            const headers: Record<string, string> = type ? { 'content-type': type } : {};
            const answer = await exchange(path, { method: 'POST', headers, body }, { envelope: true });
            expect(answer.status).not.toBe(200);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }
});
