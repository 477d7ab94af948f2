import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { loadConfig } from '../../config/load.ts';
import { clientKey, ProxyTrust } from './client-ip.ts';

describe('ProxyTrust: the client is the first untrusted address from the right', () => {
  it('without trusted proxies, is the socket peer whatever X-Forwarded-For says', () => {
    const none = new ProxyTrust(false);
    expect(none.clientOf('198.51.100.1', '1.2.3.4')).toBe('198.51.100.1');
    expect(new ProxyTrust(0).clientOf('::ffff:198.51.100.1', '1.2.3.4')).toBe('198.51.100.1');
  });

  it('with one trusted hop, is the entry the proxy appended, not what the client wrote before it', () => {
    const one = new ProxyTrust(1);
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the address it saw.
    expect(one.clientOf('127.0.0.1', '1.2.3.4, 203.0.113.7')).toBe('203.0.113.7');
    expect(one.clientOf('127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    expect(one.clientOf('127.0.0.1', undefined)).toBe('127.0.0.1');
    expect(new ProxyTrust(true).clientOf('127.0.0.1', '9.9.9.9, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('with two hops, skips the second proxy too, and never walks past the leftmost entry', () => {
    const two = new ProxyTrust(2);
    expect(two.clientOf('10.0.0.2', '1.2.3.4, 203.0.113.7, 10.0.0.1')).toBe('203.0.113.7');
    expect(two.clientOf('10.0.0.2', '10.0.0.1')).toBe('10.0.0.1');
  });

  it('with CIDR ranges, skips every trusted proxy and stops at the first address outside them', () => {
    const cidr = new ProxyTrust(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    expect(cidr.clientOf('127.0.0.1', '1.2.3.4, 203.0.113.7, 10.1.2.3')).toBe('203.0.113.7');
    expect(cidr.clientOf('fd00::5', '2001:db8::9')).toBe('2001:db8::9');
    // A peer outside the ranges is the client: its X-Forwarded-For is not believed.
    expect(cidr.clientOf('203.0.113.99', '1.2.3.4')).toBe('203.0.113.99');
    // Everything trusted: the leftmost address is all there is.
    expect(cidr.clientOf('127.0.0.1', '10.0.0.9')).toBe('10.0.0.9');
    // Garbage written by the client is never the answer while a real address follows it.
    expect(cidr.clientOf('127.0.0.1', 'not-an-ip, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys IPv6 clients by their /64 and IPv4 ones by the address', () => {
    expect(clientKey('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(clientKey('2001:0db8:00aa:00bb::1')).toBe('2001:db8:aa:bb::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('is configured as false, a hop count, or addresses and CIDRs, and refuses anything else', async () => {
    for (const trustProxy of [false, true, 2, ['10.0.0.0/8', '::1', '192.168.1.1']])
      expect((await loadConfig({ env: {}, overrides: { trustProxy } })).trustProxy).toEqual(trustProxy);
    for (const trustProxy of [['10.0.0.0/33'], ['nope'], ['10.0.0.0/8/1'], -1, 'yes'])
      await expect(loadConfig({ env: {}, overrides: { trustProxy } })).rejects.toThrow(/trustProxy/);
  });
});

describe('the public per-IP limit behind a proxy', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('counts the address the proxy saw, so a client cannot pick a fresh one for each request', async () => {
    h = await makeHarness({ trustProxy: 1, rateLimits: { supportSymbols: { limit: 3, windowSeconds: 10 } } });
    const viaProxy = (forwarded: string) =>
      h.app.request(
        '/v1/symbol/supportSymbols',
        { headers: { 'x-forwarded-for': forwarded } },
        { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
      );
    for (let i = 0; i < 3; i++) expect((await viaProxy(`10.9.9.${i}, 203.0.113.7`)).status).toBe(200);
    expect((await viaProxy('10.9.9.99, 203.0.113.7')).status).toBe(429);
    expect((await viaProxy('203.0.113.8')).status).toBe(200);
  });
});
