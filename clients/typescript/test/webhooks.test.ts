import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../src/services/sign-webhook.ts';
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts';

/** verifyWebhook against webhooks signed by Kassa's own signer (src/services/sign-webhook.ts). */
const SECRET = 'a1'.repeat(32);
const NOW = 1_764_072_000;
const data = {
  orderId: 'A-1001',
  uid: null,
  orderType: 'COLLECTION',
  status: 'SUCCESS',
  reason: null,
  amount: '10.5',
  actualAmount: '10.5',
  fee: '0.00',
  transaction: null,
};
const signed = signWebhook(
  {
    eventId: 'evt_1',
    notifyType: 'ORDER_SUCCESS',
    dataText: JSON.stringify(data),
    timestamp: NOW,
    nonce: 'n1',
  },
  SECRET,
);
const at = { now: () => NOW * 1000 };

describe('verifyWebhook', () => {
  it('accepts a Kassa webhook and returns its event, with Node-style and fetch headers', async () => {
    const event = await verifyWebhook(signed.body, signed.headers, SECRET, at);
    expect(event).toMatchObject({ eventId: 'evt_1', notifyType: 'ORDER_SUCCESS', data });
    const viaFetch = await verifyWebhook(
      new TextEncoder().encode(signed.body),
      new Headers(signed.headers),
      SECRET,
      at,
    );
    expect(viaFetch.eventId).toBe('evt_1');
  });

  it('accepts any matching entry of a multi-signature header (secret rotation)', async () => {
    const headers = {
      ...signed.headers,
      'webhook-signature': `v1,AAAA ${signed.headers['webhook-signature']}`,
    };
    await expect(verifyWebhook(signed.body, headers, SECRET, at)).resolves.toMatchObject({
      eventId: 'evt_1',
    });
  });

  it('accepts the body sign alone when a proxy stripped the headers', async () => {
    await expect(verifyWebhook(signed.body, {}, SECRET, at)).resolves.toMatchObject({ eventId: 'evt_1' });
  });

  it('refuses a changed body, a wrong secret and a bad header', async () => {
    const tampered = signed.body.replace('"amount":"10.5"', '"amount":"99.5"');
    for (const [body, headers, secret] of [
      [tampered, signed.headers, SECRET],
      [tampered, {}, SECRET],
      [signed.body, signed.headers, 'b2'.repeat(32)],
      [signed.body, { ...signed.headers, 'webhook-signature': 'v1,AAAA' }, SECRET],
      [signed.body, { ...signed.headers, 'webhook-id': 'evt_2' }, SECRET],
    ] as const) {
      await expect(verifyWebhook(body, headers, secret, at)).rejects.toBeInstanceOf(WebhookVerificationError);
    }
  });

  it('refuses a request with no signature at all, or that is not JSON', async () => {
    const unsigned = signed.body.replace(/,"sign":"[0-9a-f]+"\}$/, '}');
    await expect(verifyWebhook(unsigned, {}, SECRET, at)).rejects.toThrow('no signature');
    await expect(verifyWebhook('nope', signed.headers, SECRET, at)).rejects.toThrow('not JSON');
  });

  it('refuses a replay older than the tolerance', async () => {
    const later = { now: () => (NOW + 301) * 1000 };
    await expect(verifyWebhook(signed.body, signed.headers, SECRET, later)).rejects.toThrow('timestamp');
    await expect(
      verifyWebhook(signed.body, signed.headers, SECRET, { ...later, toleranceSeconds: 600 }),
    ).resolves.toMatchObject({ eventId: 'evt_1' });
  });
});
