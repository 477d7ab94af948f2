import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sendWebhook } from '../../src/services/send-webhook.ts';
import { signXpayWebhook } from '../../src/services/sign-xpay-webhook.ts';
import { useReceivers } from '../helpers/webhook-receiver.ts';
import { vectors, XPAY_KEYS } from '../helpers/xpay.ts';
import { javaSdkVerifyWebhook, nodeSdkParseWebhook, nodeSdkVerifyWebhook } from '../helpers/xpay-sdk.ts';

/**
 * Webhooks to a merchant in XPay mode, against test/fixtures/xpay/vectors.json. First every webhook
 * vector goes through Kassa's own HTTP sender to a real receiver, where the re-implemented SDK rules
 * (test/helpers/xpay-sdk.ts) must give exactly the verdicts captured from the real SDK; then Kassa's
 * signer must reproduce the vectors' signatures from the same event.
 */

const SECRET = XPAY_KEYS.webhookSecret;
const receiver = useReceivers();

type WebhookVector = (typeof vectors.webhookVectors)[number];

describe('the captured webhook vectors, sent over HTTP by Kassa’s sender', () => {
  it('get from the SDK rules at the receiver exactly the verdicts the real SDK gave', async () => {
    const rx = await receiver();
    expect(vectors.webhookVectors).toHaveLength(14);
    for (const v of vectors.webhookVectors) {
      const sent = await sendWebhook(
        rx.url,
        { body: v.bodyText, headers: { 'content-type': 'application/json' } },
        5000,
        {
          allowPrivateTargets: true,
        },
      );
      expect(sent.statusCode, v.id).toBe(200);
      const got = rx.received.at(-1)?.body as string;
      expect(got, v.id).toBe(v.bodyText);
      const body = JSON.parse(got);
      const clock = v.sdkClockSeconds;
      expect(nodeSdkVerifyWebhook(SECRET, got, clock, body.sign, body.timestamp), v.id).toBe(
        v.sdk['verifyWebhook(body, body.sign, body.timestamp)'],
      );
      const parsed = nodeSdkParseWebhook(SECRET, got, clock);
      expect(parsed, v.id).toEqual(v.sdk.parseWebhookReturn);
      expect(javaSdkVerifyWebhook(SECRET, got, clock), v.id).toBe(v.xpayJavaRuleAccepts);
    }
  });

  it('reproduce the SDK’s argument handling and its non-JSON fallback', () => {
    const facts = vectors.webhookArgumentFacts;
    const wh2 = vectors.webhookVectors.find((v) => v.id === 'wh-2') as WebhookVector;
    const body = JSON.parse(wh2.bodyText);
    const clock = facts.sdkClockSeconds;
    expect(nodeSdkVerifyWebhook(SECRET, wh2.bodyText, clock, body.sign, String(body.timestamp))).toBe(true);
    expect(nodeSdkVerifyWebhook(SECRET, wh2.bodyText, clock, '', '')).toBe(true);
    expect(nodeSdkVerifyWebhook(SECRET, wh2.bodyText, clock, 'deadbeef', body.timestamp)).toBe(false);
    const f = facts.nonJsonFallback;
    expect(nodeSdkVerifyWebhook(SECRET, f.body, clock, f.signatureArg, f.timestampArg)).toBe(true);
  });
});

/** The event of a vector as Kassa would sign it: its data (nulls and all), type, time and nonce. */
function kassaSigned(v: WebhookVector) {
  const body = JSON.parse(v.bodyText);
  return signXpayWebhook(
    {
      eventId: 'evt_vector',
      notifyType: body.notifyType,
      data: body.data,
      timestamp: body.timestamp,
      nonce: body.nonce,
    },
    SECRET,
  );
}

describe('Kassa’s XPay signer on the vectors’ events', () => {
  /** The vector whose body Kassa's must equal byte for byte: itself, or its twin without nulls. */
  const TWIN: Record<string, string> = { 'wh-1': 'wh-2', 'wh-3': 'wh-4', 'wh-6': 'wh-7' };

  it('leaves nulls out and signs as XPay does: the vectors’ own signatures, both SDKs accept', () => {
    for (const v of vectors.webhookVectors) {
      if (v.id === 'wh-10') continue; // tampered after signing: no event of its own
      const signed = kassaSigned(v);
      const body = JSON.parse(signed.body);
      expect(Object.keys(body), v.id).toEqual(['sign', 'timestamp', 'nonce', 'notifyType', 'data']);
      expect(signed.body, v.id).not.toContain('null');
      // wh-9 was signed over `k=null` (the node SDK's own rendering): Kassa signs XPay's way instead
      const sign = v.id === 'wh-9' ? (vectors.webhookVectors[0] as WebhookVector).sign : v.sign;
      expect(body.sign, v.id).toBe(sign);
      const twin = TWIN[v.id] ?? v.id;
      if (!['wh-5', 'wh-9'].includes(v.id))
        expect(signed.body, v.id).toBe(vectors.webhookVectors.find((x) => x.id === twin)?.bodyText);
      // at the time it was sent, both SDKs accept what Kassa signed
      expect(nodeSdkVerifyWebhook(SECRET, signed.body, body.timestamp, '', ''), v.id).toBe(true);
      expect(nodeSdkParseWebhook(SECRET, signed.body, body.timestamp), v.id).not.toBeNull();
      expect(javaSdkVerifyWebhook(SECRET, signed.body, body.timestamp), v.id).toBe(true);
    }
  });

  it('keeps Kassa’s event id and the Standard Webhooks signature in headers, out of the signed body', () => {
    const signed = kassaSigned(vectors.webhookVectors[1] as WebhookVector);
    const parsed = verifyHeadersOnly(signed);
    expect(parsed.id).toBe('evt_vector');
  });
});

/** Checks the Standard Webhooks headers of a signed webhook the way webhook-receiver.ts does. */
function verifyHeadersOnly(signed: { body: string; headers: Record<string, string> }) {
  const id = signed.headers['webhook-id'] as string;
  const ts = signed.headers['webhook-timestamp'] as string;
  const expected = createHmac('sha256', SECRET).update(`${id}.${ts}.${signed.body}`).digest('base64');
  expect(signed.headers['webhook-signature']).toBe(`v1,${expected}`);
  expect(ts).toBe(String(JSON.parse(signed.body).timestamp));
  return { id };
}
