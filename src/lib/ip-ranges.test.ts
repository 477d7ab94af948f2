import { describe, expect, it } from 'vitest';
import { nonPublicKind } from './ip-ranges.ts';

describe('nonPublicKind', () => {
  it('names loopback, private, link-local, unspecified and other ranges no webhook belongs in', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fd12:3456::1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['198.18.0.1', 'reserved'],
    ];
    for (const [ip, kind] of cases) expect(nonPublicKind(ip), ip).toBe(kind);
  });

  it('sees through IPv6 forms that carry an IPv4 address', () => {
    expect(nonPublicKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(nonPublicKind('::ffff:7f00:1')).toBe('loopback');
    expect(nonPublicKind('::ffff:169.254.169.254')).toBe('link-local');
    expect(nonPublicKind('64:ff9b::10.0.0.1')).toBe('private');
    expect(nonPublicKind('2002:c0a8:0101::1')).toBe('private'); // 6to4 of 192.168.1.1
    expect(nonPublicKind('::127.0.0.1')).toBe('loopback');
  });

  it('lets public addresses and non-addresses through', () => {
    for (const ip of ['8.8.8.8', '172.32.0.1', '203.0.113.5', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(nonPublicKind(ip), ip).toBeNull();
    expect(nonPublicKind('example.com')).toBeNull();
  });
});
