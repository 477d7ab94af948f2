import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, makeHarness } from '../../test/helpers/harness.ts';
import { type Receiver, startReceiver } from '../../test/helpers/webhook-receiver.ts';
import { performWebhookAttempt } from './attempt-webhook.ts';
import {
  createMerchant,
  describeMerchants,
  disableMerchant,
  setMerchantCallback,
  setMerchantCompat,
} from './manage-merchants.ts';
import { MerchantDirectory } from './merchant-directory.ts';

let h: Harness;
let rx: Receiver | null = null;
afterEach(async () => {
  await rx?.close();
  rx = null;
  await h?.close();
});

const production = { webhooks: { allowPrivateTargets: false } };

describe('callback URLs and private addresses', () => {
  it('refuses, by default, a callback URL on a loopback, private, link-local or unspecified address', async () => {
    h = await makeHarness(production);
    for (const url of [
      'http://127.0.0.1:8181/hook',
      'http://localhost/hook',
      'http://api.localhost/hook',
      'http://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/hook',
      'https://[fd00::1]/hook',
      'http://0.0.0.0/',
      'http://[::ffff:192.168.1.1]/',
    ]) {
      await expect(createMerchant(h.rt, { kind: 'V3', callbackUrl: url }), url).rejects.toThrow(
        /Kassa delivers there only with webhooks.allowPrivateTargets set/,
      );
    }
    const m = await createMerchant(h.rt, { kind: 'V3', callbackUrl: 'https://shop.example/hook' });
    await expect(setMerchantCallback(h.rt, m.merchantId, 'http://192.168.0.10/')).rejects.toThrow(
      /a private address \(192\.168\.0\.10\)/,
    );
  });

  it('takes them with webhooks.allowPrivateTargets (the sandbox and tests set it)', async () => {
    h = await makeHarness({ webhooks: { allowPrivateTargets: true } });
    const m = await createMerchant(h.rt, { kind: 'V3', callbackUrl: 'http://127.0.0.1:8181/hook' });
    await setMerchantCallback(h.rt, m.merchantId, 'http://10.0.0.5/hook');
  });

  it('refuses delivery when the setting is off, even to a callback stored while it was on', async () => {
    rx = await startReceiver();
    h = await makeHarness({ webhooks: { allowPrivateTargets: true } });
    const m = await createMerchant(h.rt, { kind: 'V3', callbackUrl: rx.url });
    const merchant = await new MerchantDirectory(h.rt).byId(m.merchantId);
    const event = {
      id: 'evt_private',
      merchantId: m.merchantId,
      orderRef: null,
      orderVersion: 0,
      notifyType: 'WEBHOOK_TEST',
      data: '{}',
      status: 'pending' as const,
      attempts: 0,
      nextAttemptAt: h.clock.now(),
      retryUntil: null,
      lastError: null,
      createdAt: h.clock.now(),
      deliveredAt: null,
    };
    const config = { ...h.rt.config, webhooks: { ...h.rt.config.webhooks, allowPrivateTargets: false } };
    const refused = await performWebhookAttempt({ clock: h.clock, config }, event, merchant);
    expect(refused.attempt.statusCode).toBeNull();
    expect(refused.attempt.error).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(refused.outcome.status).toBe('pending');
    expect(rx.received).toHaveLength(0);
    const delivered = await performWebhookAttempt(h.rt, event, merchant);
    expect(delivered.attempt.statusCode).toBe(200);
    expect(rx.received).toHaveLength(1);
  });
});

describe('the XPay compatibility mode of a merchant', () => {
  const xpayKeys = { token: 'x0123456789abcdef0123456789abcdef', webhookSecret: 'A'.repeat(64) };

  it('keeps the apiKey and apiSecret a merchant brings from XPay, only in XPay mode, never twice', async () => {
    h = await makeHarness();
    const m = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay', importSecrets: xpayKeys });
    expect(m).toMatchObject({ compat: 'xpay', ...xpayKeys });
    const directory = new MerchantDirectory(h.rt);
    expect(await directory.byId(m.merchantId)).toMatchObject({ compat: 'xpay', ...xpayKeys });
    await expect(
      createMerchant(h.rt, { kind: 'V3', compat: 'xpay', importSecrets: xpayKeys }),
    ).rejects.toThrow('Another merchant already has this token.');
    await expect(
      createMerchant(h.rt, { kind: 'V3', importSecrets: { ...xpayKeys, token: `y${xpayKeys.token}` } }),
    ).rejects.toThrow('Secrets can only be imported for a merchant in XPay mode (--compat xpay).');
    for (const bad of [
      { ...xpayKeys, token: 'x0123' },
      { ...xpayKeys, token: `x0123456789abcdef 0123456789abcdef` },
      { ...xpayKeys, token: `z${xpayKeys.token}`, webhookSecret: 'short' },
    ])
      await expect(
        createMerchant(h.rt, { kind: 'V3', compat: 'xpay', importSecrets: bad }),
        JSON.stringify(bad),
      ).rejects.toThrow(/must be 32 to 256 printable characters without spaces/);
    expect((await describeMerchants(h.rt)).map((x) => x.compat)).toEqual(['xpay']);
  });

  it('finds a merchant by its token only in XPay mode, and sees a change of mode within a second', async () => {
    h = await makeHarness();
    const xpay = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay' });
    const spec = await createMerchant(h.rt, { kind: 'V3' });
    const directory = new MerchantDirectory(h.rt);
    expect((await directory.byToken(xpay.token))?.id).toBe(xpay.merchantId);
    // the interface's token is a signing key that never travels: it names nobody in a header
    expect(await directory.byToken(spec.token)).toBeNull();
    // same length, one character off; a prefix; empty
    const off = `${xpay.token.slice(0, -1)}${xpay.token.endsWith('0') ? '1' : '0'}`;
    for (const wrong of [off, xpay.token.slice(0, 32), '']) expect(await directory.byToken(wrong)).toBeNull();

    expect(await setMerchantCompat(h.rt, xpay.merchantId, 'none')).toEqual({
      merchantId: xpay.merchantId,
      compat: 'none',
      previous: 'xpay',
    });
    expect((await directory.byToken(xpay.token))?.id).toBe(xpay.merchantId); // cached for up to a second
    h.clock.advance(1000);
    expect(await directory.byToken(xpay.token)).toBeNull();
    expect((await directory.byId(xpay.merchantId))?.compat).toBe('none');
    await setMerchantCompat(h.rt, spec.merchantId, 'xpay');
    h.clock.advance(1000);
    expect((await directory.byToken(spec.token))?.id).toBe(spec.merchantId);
    await disableMerchant(h.rt, spec.merchantId);
    h.clock.advance(1000);
    expect(await directory.byToken(spec.token)).toBeNull();
    await expect(setMerchantCompat(h.rt, 'mch_nobody', 'xpay')).rejects.toThrow('No merchant mch_nobody.');
  });
});
