import { afterEach, describe, expect, it } from 'vitest';
import { createMerchant, type MerchantCreated } from '../../src/services/manage-merchants.ts';
import { body, type Harness, makeHarness } from '../helpers/harness.ts';
import { ordersAndNonces } from '../helpers/row-count.ts';
import { vectors } from '../helpers/xpay.ts';
import { javaSdkQuery, nodeSdkRequestBody } from '../helpers/xpay-sdk.ts';

/**
 * XPay-style requests that must be refused, and how: always HTTP 200 with XPay's envelope and text,
 * nothing written; and the interface's requests of the same merchants, which must not change.
 */

let h: Harness;
afterEach(() => h?.close());

let n = 0;
const order = () => ({ amount: '10', symbol: 'USDT', chain: 'TRON', orderId: `o-${++n}` });

async function setup(overrides: Record<string, unknown> = {}) {
  h = await makeHarness(overrides);
  const xpay = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay' });
  const spec = await createMerchant(h.rt, { kind: 'V3' });
  return { xpay, spec };
}

const now = () => Math.floor(h.clock.now() / 1000);

function xpayPost(
  path: string,
  token: string | null,
  text: string,
  ip = '127.0.0.1',
): Response | Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['x-api-token'] = token;
  return h.app.request(
    path,
    { method: 'POST', headers, body: text },
    { incoming: { socket: { remoteAddress: ip } } },
  );
}

/** Sends a node-SDK-signed createCollection for `m` and reads XPay's envelope (HTTP 200 always). */
async function create(
  m: MerchantCreated,
  data: Record<string, unknown>,
  options: { timestamp?: number; nonce?: string } = {},
) {
  const text = nodeSdkRequestBody(m.webhookSecret, data, {
    timestamp: options.timestamp ?? now(),
    nonce: options.nonce ?? `n-${++n}`,
  });
  const res = await xpayPost('/v1/order/createCollection', m.token, text);
  expect(res.status).toBe(200);
  return body(res);
}

const counts = () => ordersAndNonces(h);

describe('XPay-style requests that are refused', () => {
  it('answers a missing, unknown or interface-mode token as XPay does, before reading anything else', async () => {
    const { xpay, spec } = await setup();
    const text = nodeSdkRequestBody(xpay.webhookSecret, order(), { timestamp: now(), nonce: 'a' });
    const before = await counts();
    for (const [token, msg] of [
      ['', 'Permission denied'],
      ['x-unknown-token', 'Invalid permissions'],
      // a merchant in the interface's mode: its token is its signing key, never an X-API-TOKEN
      [spec.token, 'Invalid permissions'],
    ] as const) {
      const res = await xpayPost('/v1/order/createCollection', token, text);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ code: 500, msg, data: null });
    }
    const getBalance = await h.app.request('/v1/merchant/getBalance?symbol=USDT');
    expect(await getBalance.json()).toEqual({ code: 500, msg: 'Permission denied', data: null });
    expect(await counts()).toEqual(before);
  });

  it('refuses a bad signature, a stale or future timestamp, missing fields and a replay, with XPay’s texts', async () => {
    const { xpay } = await setup();
    const before = await counts();
    const good = nodeSdkRequestBody(xpay.webhookSecret, order(), { timestamp: now(), nonce: 'once' });
    const tampered = good.replace('"amount":"10"', '"amount":"11"');
    const sign = JSON.parse(good).sign;
    expect(await body(await xpayPost('/v1/order/createCollection', xpay.token, tampered))).toEqual({
      code: 500,
      msg: `Signature error ${sign}`,
      data: null,
    });
    // signed with the token (the interface's key) instead of the webhook secret
    const wrongKey = nodeSdkRequestBody(xpay.token, order(), { timestamp: now(), nonce: 'k' });
    expect((await body(await xpayPost('/v1/order/createCollection', xpay.token, wrongKey))).msg).toMatch(
      /^Signature error [0-9a-f]{64}$/,
    );
    for (const [offset, diff] of [
      [-301, 301],
      [301, -301],
    ] as const) {
      const r = await create(xpay, order(), { timestamp: now() + offset });
      expect(r).toEqual({ code: 500, msg: `The difference in timestamps ${diff}`, data: null });
    }
    const parsed = JSON.parse(good);
    for (const [drop, msg] of [
      ['timestamp', 'timestamp is null'],
      ['nonce', 'nonce is null'],
      ['sign', 'sign is null'],
    ] as const) {
      const { [drop]: _, ...rest } = parsed;
      expect(
        await body(await xpayPost('/v1/order/createCollection', xpay.token, JSON.stringify(rest))),
      ).toEqual({
        code: 500,
        msg,
        data: null,
      });
    }
    for (const junk of ['', '{', '[1]', 'null'])
      expect((await body(await xpayPost('/v1/order/createCollection', xpay.token, junk))).msg).toBe(
        'JSON parsing failed',
      );
    expect(await counts()).toEqual(before);

    expect((await body(await xpayPost('/v1/order/createCollection', xpay.token, good))).code).toBe(200);
    expect(await body(await xpayPost('/v1/order/createCollection', xpay.token, good))).toEqual({
      code: 500,
      msg: `appId: , timestamp: ${parsed.timestamp}, nonce: once`,
      data: null,
    });
    expect(await counts()).toEqual({ orders: before.orders + 1, nonces: before.nonces + 1 });
  });

  it('answers validation errors with the interface’s texts (XPay’s where it has its own), HTTP 200, code 500', async () => {
    const { xpay } = await setup();
    expect(await create(xpay, { symbol: 'USDT', chain: 'TRON', orderId: 'v-1' })).toEqual({
      code: 500,
      msg: 'The amount cannot be left blank.',
      data: null,
    });
    expect(await create(xpay, { amount: '1', symbol: 'DOGE', chain: 'TRON', orderId: 'v-2' })).toEqual({
      code: 500,
      msg: 'Unsupported symbol or chain',
      data: null,
    });
    expect((await create(xpay, { amount: '1', symbol: 'USDT', chain: 'TRON', orderId: 'v-3' })).code).toBe(
      200,
    );
    expect(await create(xpay, { amount: '2', symbol: 'USDT', chain: 'TRON', orderId: 'v-3' })).toEqual({
      code: 500,
      msg: 'Order ID already exists.',
      data: null,
    });
    // the same parameters again are the same order, as everywhere in Kassa
    expect((await create(xpay, { amount: '1', symbol: 'USDT', chain: 'TRON', orderId: 'v-3' })).code).toBe(
      200,
    );
  });

  it('counts refused tokens and signatures against the client’s failed-authentication limit, for both APIs', async () => {
    const { xpay, spec } = await setup({ auth: { failedAttempts: { limit: 3, windowSeconds: 60 } } });
    for (let i = 0; i < 3; i++)
      expect(
        (await body(await xpayPost('/v1/order/createCollection', `x-guess-${i}`, '{}', '198.51.100.7'))).msg,
      ).toBe('Invalid permissions');
    const limited = await xpayPost(
      '/v1/order/createCollection',
      xpay.token,
      nodeSdkRequestBody(xpay.webhookSecret, order(), { timestamp: now(), nonce: 'z' }),
      '198.51.100.7',
    );
    expect(limited.status).toBe(200);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({
      code: 500,
      msg: 'Visit too frequently, please try again later',
      data: null,
    });
    // the same address's interface-style requests are held back as well
    const specLimited = await h.app.request(
      `/v1/order/status/x?sign=${'ab'.repeat(32)}`,
      {},
      { incoming: { socket: { remoteAddress: '198.51.100.7' } } },
    );
    expect(specLimited.status).toBe(429);
    expect(spec.merchantId).toMatch(/^mch_/);
  });

  it('shows a merchant only its own orders, by the token alone', async () => {
    const { xpay } = await setup();
    const other = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay' });
    expect((await create(other, { ...order(), orderId: 'theirs' })).code).toBe(200);
    expect((await create(xpay, { ...order(), orderId: 'mine' })).code).toBe(200);
    const mine = await body(
      await h.app.request('/v1/order/status/mine', { headers: { 'x-api-token': xpay.token } }),
    );
    expect(mine).toMatchObject({ code: 200, data: { orderId: 'mine', status: 'INIT' } });
    expect(
      await body(await h.app.request('/v1/order/status/theirs', { headers: { 'x-api-token': xpay.token } })),
    ).toEqual({ code: 500, msg: 'Order not found theirs', data: null });
    // with any query parameter the query must be signed, as at XPay
    expect(
      await body(
        await h.app.request('/v1/order/status/mine?x=1', { headers: { 'x-api-token': xpay.token } }),
      ),
    ).toEqual({ code: 500, msg: 'timestamp is null', data: null });
    const signed = javaSdkQuery(xpay.webhookSecret, {}, { timestamp: now(), nonce: 'q1' });
    expect(
      (
        await body(
          await h.app.request(`/v1/order/status/mine?${signed}`, { headers: { 'x-api-token': xpay.token } }),
        )
      ).code,
    ).toBe(200);
  });

  it('refuses only in the one form the node SDK hands back instead of throwing (its errorHandling vectors)', async () => {
    // the SDK returned the body, without throwing, for HTTP 200 {code:500,msg,data:null} alone
    const returned = vectors.errorHandling.filter((e) => !e.threw);
    expect(returned.map((e) => [e.call, e.case])).toEqual([
      ['createCollection', 'HTTP 200, body {code:500,msg:"x",data:null}'],
      ['getOrderStatus', 'HTTP 200, body {code:500,msg:"x",data:null}'],
    ]);
    const { xpay } = await setup();
    const badSign = nodeSdkRequestBody('not the secret', order(), { timestamp: now(), nonce: 'e-1' });
    const refusals = [
      await xpayPost('/v1/order/createCollection', xpay.token, badSign),
      await h.app.request('/v1/order/status/nope', { headers: { 'x-api-token': xpay.token } }),
    ];
    for (const [i, res] of refusals.entries()) {
      const want = returned[i]?.returned as { code: number; msg: string; data: null };
      expect(res.status).toBe(200);
      const got = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
      expect({ code: got.code, data: got.data }).toEqual({ code: want.code, data: want.data });
      expect(got.msg).toEqual(expect.any(String));
    }
  });

  it('answers getBalance with a required symbol and an unknown symbol as XPay does', async () => {
    const { xpay } = await setup();
    const ask = async (fields: Record<string, string>) =>
      body(
        await h.app.request(
          `/v1/merchant/getBalance?${javaSdkQuery(xpay.webhookSecret, fields, { timestamp: now(), nonce: `b-${++n}` })}`,
          { headers: { 'x-api-token': xpay.token } },
        ),
      );
    expect(await ask({})).toEqual({ code: 500, msg: 'The symbol cannot be left blank.', data: null });
    expect(await ask({ symbol: 'DOGE' })).toEqual({ code: 500, msg: 'Unsupported asset type', data: null });
    await h.fund(xpay, 'BSC', 'USDT', '0.000000000000000001');
    await h.fund(xpay, 'TRON', 'USDT', '2.5');
    expect(await ask({ symbol: 'usdt' })).toMatchObject({
      code: 200,
      data: { symbol: 'USDT', balance: '2.500000000000000001', frozenBalance: '0.00' },
    });
    expect(await ask({ symbol: 'USDT', chain: 'TRON' })).toMatchObject({ data: { balance: '2.50' } });
    expect(await ask({ symbol: 'USDC' })).toMatchObject({
      code: 200,
      data: { symbol: 'USDC', balance: '0.00', totalBalance: '0.00', updateTime: null },
    });
  });
});

describe('the interface’s own requests are unchanged', () => {
  it('a merchant in XPay mode can still sign the interface’s way and gets the interface’s answers', async () => {
    const { xpay, spec } = await setup();
    for (const m of [xpay, spec]) {
      const res = await h.post('/v1/order/createCollection', m, order());
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ code: 200, msg: 'success' });
      const bad = await h.post('/v1/order/createCollection', m, order(), { sign: 'ab'.repeat(32) });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toEqual({ code: 401, msg: 'Invalid signature.', data: null });
    }
    // checkout endpoints stay the interface's even with the header
    const pay = await h.app.request('/v1/order/pay?orderId=x', { headers: { 'x-api-token': xpay.token } });
    expect(pay.status).toBe(400);
    expect(await pay.json()).toEqual({ code: 400, msg: 'The sign cannot be left blank.', data: null });
    // the interface's getBalance is the POST; a GET without the header is XPay's form, refused its way
    expect((await h.app.request('/v1/merchant/getBalance')).status).toBe(200);
    expect((await h.app.request('/v1/nothing')).status).toBe(404);
    expect(await (await h.app.request('/v1/nothing', { headers: { 'x-api-token': 't' } })).json()).toEqual({
      code: 404,
      msg: 'Not found.',
      data: null,
    });
  });
});
