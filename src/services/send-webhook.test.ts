import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/helpers/cli.ts';
import { type Receiver, startReceiver } from '../../test/helpers/webhook-receiver.ts';
import { guardedLookup, sendWebhook } from './send-webhook.ts';

/** The receivers of these tests listen on 127.0.0.1, which production refuses (see the last block). */
const LOCAL = { allowPrivateTargets: true };
const signed = {
  body: '{"eventId":"evt_x"}',
  headers: { 'content-type': 'application/json', 'webhook-id': 'evt_x' },
};
let rx: Receiver | null = null;
afterEach(async () => {
  await rx?.close();
  rx = null;
});

describe('sendWebhook', () => {
  it('POSTs the exact body with its headers and a content-length', async () => {
    rx = await startReceiver();
    const r = await sendWebhook(rx.url, signed, 1000, LOCAL);
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(rx.received[0]).toMatchObject({ method: 'POST', path: '/hook', body: signed.body });
    expect(rx.received[0]!.headers).toMatchObject({ 'webhook-id': 'evt_x', 'content-length': '19' });
  });

  it('keeps the start of an error answer, on one line', async () => {
    rx = await startReceiver();
    rx.reply(() => ({ status: 422, body: `bad\n  signature ${'x'.repeat(5000)}` }));
    const r = await sendWebhook(rx.url, signed, 1000, LOCAL);
    expect(r.statusCode).toBe(422);
    expect(r.error).toMatch(/^HTTP 422: bad signature x+$/);
    expect(r.error!.length).toBeLessThanOrEqual('HTTP 422: '.length + 200);
  });

  it('reports a 3xx with where it pointed, without going there', async () => {
    rx = await startReceiver();
    rx.reply(() => ({ status: 301, headers: { location: 'https://user:pw@new.example/hook?token=abc' } }));
    const r = await sendWebhook(rx.url, signed, 1000, LOCAL);
    expect(r.statusCode).toBe(301);
    expect(r.error).toBe(
      'HTTP 301: redirect to https://new.example/hook?*** not followed; set the final URL as the callback',
    );
    expect(rx.received).toHaveLength(1);
  });

  it('names network failures: refused, dropped, and a bad scheme', async () => {
    expect((await sendWebhook(`http://127.0.0.1:${await freePort()}/`, signed, 1000, LOCAL)).error).toBe(
      'connection refused (ECONNREFUSED)',
    );
    rx = await startReceiver();
    rx.reply(() => 'drop');
    const dropped = await sendWebhook(rx.url, signed, 1000, LOCAL);
    expect(dropped.statusCode).toBeNull();
    expect(dropped.error).toMatch(/ECONNRESET|socket hang up/);
    expect((await sendWebhook('ftp://x/', signed, 1000, LOCAL)).error).toBe(
      'the callback URL must use http or https, not ftp:',
    );
  });

  it('gives up after the timeout even when the status line came but the body never ends', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(500);
      res.write('partial');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const started = Date.now();
    const r = await sendWebhook(`http://127.0.0.1:${port}/`, signed, 200, LOCAL);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(r).toMatchObject({ statusCode: 500, error: 'HTTP 500: partial' });
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
});

describe('sendWebhook on kept-alive connections', () => {
  it('sends again on a new connection when the receiver closed the reused one, within one attempt', async () => {
    const { createServer } = await import('node:http');
    let requests = 0;
    const perSocket = new WeakMap<object, number>();
    const server = createServer((req, res) => {
      requests++;
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      // the receiver drops a connection on its second request, as an idle-timeout race does
      if (n === 2) return req.socket.destroy();
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      expect(await sendWebhook(url, signed, 1000, LOCAL)).toMatchObject({ statusCode: 200, error: null });
      expect(await sendWebhook(url, signed, 1000, LOCAL)).toMatchObject({ statusCode: 200, error: null });
      expect(requests).toBe(3);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('sendWebhook to private addresses (webhooks.allowPrivateTargets off, the default)', () => {
  /** A lookup that answers what the test says, as a rebinding DNS server would. */
  const resolvesTo =
    (...addresses: string[]): LookupFunction =>
    (_host, options, callback) => {
      const list = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if (options.all) (callback as (e: null, a: typeof list) => void)(null, list);
      else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
    };

  it('refuses a callback on a loopback, private or metadata address without connecting', async () => {
    rx = await startReceiver();
    const port = new URL(rx.url).port;
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1']) {
      const r = await sendWebhook(`http://${host}:${port}/hook`, signed, 1000);
      expect(r.statusCode, host).toBeNull();
      expect(r.error, host).toMatch(
        /a loopback address; Kassa delivers there only with webhooks.allowPrivateTargets$/,
      );
    }
    // Never connected: the receiver heard nothing.
    expect(rx.received).toHaveLength(0);
  });

  it('checks the address the name resolves to when connecting, so a rebinding name gets nowhere', async () => {
    rx = await startReceiver();
    const url = `http://shop.example:${new URL(rx.url).port}/hook`;
    const r = await sendWebhook(url, signed, 1000, {
      allowPrivateTargets: false,
      lookup: resolvesTo('127.0.0.1'),
    });
    expect(r.error).toContain('leads to 127.0.0.1, a loopback address');
    expect(rx.received).toHaveLength(0);
  });

  it('refuses a name with a private address among public ones whole, so none of them is tried', async () => {
    // The lookup alone (no connection is made by this test, to any address).
    const answer = await new Promise<{ error: NodeJS.ErrnoException | null; addresses: unknown }>((resolve) =>
      guardedLookup(resolvesTo('203.0.113.5', '169.254.169.254'))(
        'shop.example',
        { all: true },
        (error, addresses) => resolve({ error, addresses }),
      ),
    );
    expect(answer.error?.message).toContain('leads to 169.254.169.254, a link-local address');
    const fine = await new Promise<unknown>((resolve) =>
      guardedLookup(resolvesTo('203.0.113.5'))('shop.example', { all: true }, (_e, addresses) =>
        resolve(addresses),
      ),
    );
    expect(fine).toEqual([{ address: '203.0.113.5', family: 4 }]);
  });

  it('delivers to the same addresses once allowPrivateTargets is set', async () => {
    rx = await startReceiver();
    const url = `http://shop.example:${new URL(rx.url).port}/hook`;
    const r = await sendWebhook(url, signed, 1000, {
      allowPrivateTargets: true,
      lookup: resolvesTo('127.0.0.1'),
    });
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(rx.received).toHaveLength(1);
  });
});
