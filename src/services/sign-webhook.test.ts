import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './sign-webhook.ts';

const SECRET = 'ab'.repeat(32);
const message = {
  eventId: 'evt_0123456789abcdefghij',
  notifyType: 'ORDER_SUCCESS',
  // unusual but valid JSON text: the signature must cover these exact bytes
  dataText: '{"orderId":"Ü-1 \\"q\\"","amount":"10.50","transaction":null,"n":1.0}',
  timestamp: 1764072000,
  nonce: 'n0nce',
};

describe('signWebhook', () => {
  it('places the data text in the body byte for byte and signs it with hex HMAC-SHA256', () => {
    const { body } = signWebhook(message, SECRET);
    expect(body).toBe(
      `{"eventId":"evt_0123456789abcdefghij","notifyType":"ORDER_SUCCESS","timestamp":1764072000,` +
        `"nonce":"n0nce","data":${message.dataText},"sign":"${createHmac('sha256', SECRET).update(message.dataText).digest('hex')}"}`,
    );
    expect(JSON.parse(body)).toMatchObject({ eventId: message.eventId, timestamp: 1764072000 });
  });

  it('sets the Standard Webhooks headers: id, unix seconds, v1 base64 HMAC of id.timestamp.body', () => {
    const { body, headers } = signWebhook(message, SECRET);
    const expected = createHmac('sha256', SECRET)
      .update(`evt_0123456789abcdefghij.1764072000.${body}`)
      .digest('base64');
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'evt_0123456789abcdefghij',
      'webhook-timestamp': '1764072000',
      'webhook-signature': `v1,${expected}`,
    });
  });

  it('gives a different Standard Webhooks signature for another nonce or timestamp, the same sign', () => {
    const a = signWebhook(message, SECRET);
    const b = signWebhook({ ...message, nonce: 'other' }, SECRET);
    const c = signWebhook({ ...message, timestamp: message.timestamp + 1 }, SECRET);
    expect(JSON.parse(b.body).sign).toBe(JSON.parse(a.body).sign);
    expect(b.headers['webhook-signature']).not.toBe(a.headers['webhook-signature']);
    expect(c.headers['webhook-signature']).not.toBe(a.headers['webhook-signature']);
  });

  it('refuses data that is not JSON text rather than sending a body nobody can parse', () => {
    expect(() => signWebhook({ ...message, dataText: '{"a":' }, SECRET)).toThrow();
  });
});
