import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { signData } from '../../../test/helpers/signing.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';
import { createApp } from '../app.ts';

const PATH = '/v1/order/createCollection';
let h: Harness;
let m: MerchantCreated;
const data = { amount: '5', symbol: 'USDT', chain: 'TRON', orderId: 'sig-1' };

beforeEach(async () => {
  h = await makeHarness();
  m = await h.merchant('V3');
});
afterEach(() => h.close());

async function orderExists(merchant: MerchantCreated, orderId: string): Promise<boolean> {
  const r = await h.getSigned('/v1/order/getOrderStatus', merchant, orderId);
  return r.status === 200;
}

describe('signed POST requests', () => {
  it('accepts the exact bytes of data as sent, even when they are not JSON.stringify output', async () => {
    const dataText = '{ "amount" : "5", "symbol":"USDT",\n "chain":"TRON", "orderId":"sig-1" }';
    const res = await h.post(PATH, m, null, { dataText });
    expect((await body(res)).code).toBe(200);
  });

  it('accepts a signature over JSON.stringify(data) when the body was pretty-printed', async () => {
    const dataText = JSON.stringify(data, null, 2);
    const res = await h.post(PATH, m, null, { dataText, sign: signData(m.token, JSON.stringify(data)) });
    expect((await body(res)).code).toBe(200);
  });

  it('rejects a signature made with another key, and creates nothing', async () => {
    const res = await h.post(PATH, m, data, { sign: signData('not-the-token', JSON.stringify(data)) });
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ code: 401, msg: 'Invalid signature.', data: null });
    expect(await orderExists(m, 'sig-1')).toBe(false);
  });

  it('rejects tampered data (signed 5, sent 500)', async () => {
    const sign = signData(m.token, JSON.stringify(data));
    const res = await h.post(PATH, m, { ...data, amount: '500' }, { sign });
    expect(res.status).toBe(401);
    expect(await orderExists(m, 'sig-1')).toBe(false);
  });

  it('rejects a timestamp more than 300 s away, in either direction', async () => {
    const now = Math.floor(h.clock.now() / 1000);
    for (const timestamp of [now - 301, now + 301]) {
      const res = await h.post(PATH, m, data, { timestamp });
      expect(res.status).toBe(401);
      expect((await body(res)).msg).toBe('The timestamp is outside the accepted window.');
    }
    expect((await body(await h.post(PATH, m, data, { timestamp: now - 299 }))).code).toBe(200);
  });

  it('rejects a reused nonce and the replay changes nothing', async () => {
    const first = await h.post(PATH, m, data, { nonce: 'n-1' });
    expect(first.status).toBe(200);
    const replay = await h.post(PATH, m, { ...data, orderId: 'sig-2' }, { nonce: 'n-1' });
    expect(replay.status).toBe(401);
    expect((await body(replay)).msg).toBe('The nonce has already been used.');
    expect(await orderExists(m, 'sig-2')).toBe(false);
  });

  it('lets two merchants use the same nonce', async () => {
    const other = await h.merchant('V3');
    expect((await h.post(PATH, m, data, { nonce: 'shared' })).status).toBe(200);
    expect((await h.post(PATH, other, data, { nonce: 'shared' })).status).toBe(200);
  });

  it('finds the merchant from X-Merchant-Id and refuses a token of another merchant under that id', async () => {
    const other = await h.merchant('V3');
    const ok = await h.post(PATH, m, data, { headers: { 'x-merchant-id': m.merchantId } });
    expect(ok.status).toBe(200);
    const wrong = await h.post(
      PATH,
      other,
      { ...data, orderId: 'x2' },
      { headers: { 'x-merchant-id': m.merchantId } },
    );
    expect(wrong.status).toBe(401);
  });

  it('stops accepting a disabled merchant', async () => {
    const { disableMerchant } = await import('../../services/manage-merchants.ts');
    await disableMerchant(h.rt, m.merchantId);
    h.clock.advance(1500); // the directory re-reads merchants within a second
    const res = await h.post(PATH, m, data);
    expect(res.status).toBe(401);
  });

  it('names the missing envelope field', async () => {
    const cases: [string, string][] = [
      ['{"timestamp":1,"nonce":"a","data":{}}', 'The sign cannot be left blank.'],
      ['{"sign":"ab","nonce":"a","data":{}}', 'The timestamp cannot be left blank.'],
      ['{"sign":"ab","timestamp":1,"data":{}}', 'The nonce cannot be left blank.'],
      ['{"sign":"ab","timestamp":1,"nonce":"a"}', 'The data cannot be left blank.'],
      ['not json', 'The request body must be a JSON object.'],
      ['[1,2]', 'The request body must be a JSON object.'],
    ];
    for (const [text, msg] of cases) {
      const res = await h.app.request(PATH, {
        method: 'POST',
        body: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(await body(res)).toEqual({ code: 400, msg, data: null });
    }
  });

  it('refuses a body over the size limit with 413', async () => {
    const big = { ...data, filler: 'x'.repeat(70 * 1024) };
    const res = await h.post(PATH, m, big);
    expect(res.status).toBe(413);
    expect(await body(res)).toEqual({ code: 413, msg: 'The request body is too large.', data: null });
  });

  it('answers unknown paths with 404 in the envelope', async () => {
    const res = await h.app.request('/v1/nope');
    expect(res.status).toBe(404);
    expect(await body(res)).toEqual({ code: 404, msg: 'Not found.', data: null });
  });
});

describe('deeply nested JSON', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const ts = () => Math.floor(h.clock.now() / 1000);

  it('refuses 5,000 nested arrays with 400 before reading it, logs it at info without a stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (s: string) => lines.push(JSON.parse(s)) });
    const app = createApp({ ...h.rt, logger });
    const text = `{"sign":"${'0'.repeat(64)}","timestamp":${ts()},"nonce":"n-deep","data":{"a":${nested(5000)}}}`;
    const res = await app.request(PATH, { method: 'POST', body: text });
    expect(res.status).toBe(400);
    expect(await body(res)).toEqual({ code: 400, msg: 'The request body is nested too deeply.', data: null });
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const refusal = lines.find((l) => l.msg === 'request refused');
    expect(refusal).toMatchObject({ level: 30, status: 400, msg: 'request refused' });
    expect(JSON.stringify(lines)).not.toContain('RangeError');
  });

  it('accepts 64 levels in all (the envelope counts), refuses 65, and the limit is configurable', async () => {
    const send = (levels: number, orderId: string) => {
      const dataText = `{"amount":"5","symbol":"USDT","chain":"TRON","orderId":"${orderId}","x":${nested(levels - 2)}}`;
      return h.post(PATH, m, null, { dataText });
    };
    expect((await send(64, 'deep-64')).status).toBe(200);
    expect((await send(65, 'deep-65')).status).toBe(400);
    await h.close();
    h = await makeHarness({ auth: { maxJsonDepth: 8 } });
    m = await h.merchant('V3');
    expect((await send(8, 'deep-8')).status).toBe(200);
    expect((await body(await send(9, 'deep-9'))).msg).toBe('The request body is nested too deeply.');
  });
});
