import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KassaClient, KassaError, KassaNetworkError } from '../src/index.ts';

/**
 * The client against a scripted HTTP server on a real socket: what it signs, what it retries and
 * what it throws. (Its run against a real Kassa is kassa-start.test.ts.)
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Reply = (req: Seen, res: ServerResponse) => void;

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

async function serve(replies: Reply[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const s = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    seen.push(s);
    const reply = replies[Math.min(seen.length - 1, replies.length - 1)] as Reply;
    reply(s, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
const okCollection = (req: Seen, res: ServerResponse) => {
  const data = JSON.parse(req.body).data;
  json(200, {
    code: 200,
    msg: 'success',
    data: { ...data, address: '0xabc', uid: null, expiredTime: 1, paymentUrl: 'u' },
  })(req, res);
};
const TOKEN = 'f'.repeat(64);
const hmacHex = (text: string) => createHmac('sha256', TOKEN).update(text).digest('hex');

function client(
  url: string,
  delays: number[] = [],
  extra: Partial<ConstructorParameters<typeof KassaClient>[0]> = {},
) {
  return new KassaClient({
    baseUrl: `${url}/`,
    token: TOKEN,
    merchantId: 'mch_test',
    retryDelayMs: 10,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...extra,
  });
}

describe('signed requests', () => {
  it('signs the JSON text of data with the token, with a timestamp, a nonce and X-Merchant-Id', async () => {
    const { url, seen } = await serve([okCollection]);
    const at = Date.UTC(2026, 10, 26, 12, 0, 0);
    const created = await client(url, [], { now: () => at }).createCollection({
      amount: '10.50',
      symbol: 'USDT',
      chain: 'ETH',
      orderId: 'A-1',
    });
    expect(created.orderId).toBe('A-1');
    const req = seen[0] as Seen;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/order/createCollection');
    expect(req.headers['x-merchant-id']).toBe('mch_test');
    expect(req.headers['content-type']).toBe('application/json');
    const text = /"data":(\{.*\})\}$/.exec(req.body)?.[1] as string;
    expect(text).toBe('{"amount":"10.50","symbol":"USDT","chain":"ETH","orderId":"A-1"}');
    const body = JSON.parse(req.body);
    expect(body.sign).toBe(hmacHex(text));
    expect(body.timestamp).toBe(at / 1000);
    expect(body.nonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it('signs order queries over the orderId and escapes it in the path', async () => {
    const { url, seen } = await serve([json(200, { code: 200, msg: 'success', data: { status: 'INIT' } })]);
    const c = client(url);
    await c.getOrder('A/1 ü');
    expect(await c.getOrderStatus('A/1 ü')).toBe('INIT');
    await c.getCheckout('A-2');
    expect(seen[0]?.url).toBe(`/v1/order/status/A%2F1%20%C3%BC?sign=${hmacHex('A/1 ü')}`);
    expect(seen[1]?.url).toBe(`/v1/order/getOrderStatus?orderId=A%2F1+%C3%BC&sign=${hmacHex('A/1 ü')}`);
    expect(seen[2]?.url).toBe(`/v1/order/pay?orderId=A-2&sign=${hmacHex('A-2')}`);
  });

  it('sends supportSymbols unsigned with its filters', async () => {
    const { url, seen } = await serve([json(200, { code: 200, msg: 'success', data: [] })]);
    await client(url).supportSymbols({ chain: 'TRON' });
    expect(seen[0]?.url).toBe('/v1/symbol/supportSymbols?chain=TRON');
  });
});

describe('errors', () => {
  it('throws KassaError with the envelope’s code and msg, and does not retry a refusal', async () => {
    const { url, seen } = await serve([
      json(400, { code: 400, msg: 'ReceiveAddress error', data: null }, { 'x-request-id': 'req_1' }),
    ]);
    const error = await client(url)
      .createPayout({ amount: '1', symbol: 'USDT', chain: 'ETH', orderId: 'P-1', receiveAddress: 'nope' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KassaError);
    expect(error).toMatchObject({ code: 400, msg: 'ReceiveAddress error', requestId: 'req_1' });
    expect(seen).toHaveLength(1);
  });

  it('does not retry 409: the orderId was used with other parameters', async () => {
    const msg = 'The orderId already exists with different parameters.';
    const { url, seen } = await serve([json(409, { code: 409, msg, data: null })]);
    await expect(
      client(url).createCollection({ amount: '1', symbol: 'USDT', chain: 'ETH', orderId: 'A-1' }),
    ).rejects.toMatchObject({ code: 409, msg });
    expect(seen).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 503 and 500 with a fresh nonce and timestamp but the same data and sign', async () => {
    const delays: number[] = [];
    const { url, seen } = await serve([
      json(503, { code: 503, msg: 'The service is busy. Please retry.', data: null }),
      json(500, { code: 500, msg: 'Internal error.', data: null }),
      okCollection,
    ]);
    let t = 1_000_000_000_000;
    const created = await client(url, delays, { now: () => (t += 1000) }).createCollection({
      amount: '1',
      symbol: 'USDT',
      chain: 'ETH',
    });
    expect(seen).toHaveLength(3);
    const bodies = seen.map((s) => JSON.parse(s.body));
    expect(new Set(bodies.map((b) => b.nonce)).size).toBe(3);
    expect(new Set(bodies.map((b) => b.timestamp)).size).toBe(3);
    expect(new Set(bodies.map((b) => b.sign)).size).toBe(1);
    expect(delays).toHaveLength(2);
    // no orderId given: the client made one and kept it across the retries (idempotent creation)
    expect(new Set(bodies.map((b) => b.data.orderId)).size).toBe(1);
    expect(created.orderId).toMatch(/^kc_[0-9a-f]{32}$/);
  });

  it('waits as long as Retry-After says on 429', async () => {
    const delays: number[] = [];
    const { url } = await serve([
      json(
        429,
        { code: 429, msg: 'Too many requests. Please slow down.', data: null },
        { 'retry-after': '2' },
      ),
      json(200, { code: 200, msg: 'success', data: { status: 'SUCCESS' } }),
    ]);
    expect(await client(url, delays).getOrderStatus('A-1')).toBe('SUCCESS');
    expect(delays).toEqual([2000]);
  });

  it('gives up after the configured retries with the last error', async () => {
    const { url, seen } = await serve([json(503, { code: 503, msg: 'busy', data: null })]);
    await expect(client(url, [], { retries: 2 }).getOrder('A-1')).rejects.toMatchObject({ code: 503 });
    expect(seen).toHaveLength(3);
  });

  it('does not wait for a Retry-After longer than maxRetryDelayMs', async () => {
    const delays: number[] = [];
    const { url, seen } = await serve([
      json(
        429,
        { code: 429, msg: 'Too many requests. Please slow down.', data: null },
        { 'retry-after': '120' },
      ),
    ]);
    const error = await client(url, delays)
      .getOrder('A-1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 429, retryAfterSeconds: 120 });
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a refused connection, then throws KassaNetworkError', async () => {
    const { url } = await serve([json(200, {})]);
    await new Promise((resolve) => server?.close(resolve));
    server = null;
    const delays: number[] = [];
    const error = await client(url, delays, { retries: 1 })
      .getOrder('A-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KassaNetworkError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(delays).toHaveLength(1);
  });

  it('times out an attempt that gets no answer', async () => {
    const { url, seen } = await serve([() => {}]);
    const delays: number[] = [];
    const error = await client(url, delays, { retries: 1, timeoutMs: 100 })
      .getOrder('A-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KassaNetworkError);
    expect((error as Error).message).toContain('no answer within 100 ms');
    // one retry after the first attempt timed out; the server may read the second request after the
    // client gave up on it (a loaded machine), so the count of requests it saw is not the measure
    expect(delays).toHaveLength(1);
    expect(seen.length).toBeGreaterThanOrEqual(1);
  });

  it('stops when the caller aborts', async () => {
    const { url } = await serve([json(503, { code: 503, msg: 'busy', data: null })]);
    const controller = new AbortController();
    const c = new KassaClient({
      baseUrl: url,
      token: TOKEN,
      sleep: async () => controller.abort(new Error('stop')),
    });
    await expect(c.getOrder('A-1', { signal: controller.signal })).rejects.toThrow('stop');
  });
});
