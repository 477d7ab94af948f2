import { BlockList, isIP } from 'node:net';

/** Why an address is not a public internet address. */
export type NonPublicKind = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'reserved';

const RANGES: [kind: NonPublicKind, family: 'ipv4' | 'ipv6', network: string, prefix: number][] = [
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '100.64.0.0', 10], // carrier-grade NAT, shared address space
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['link-local', 'ipv4', '169.254.0.0', 16], // cloud metadata services live here
  ['private', 'ipv4', '172.16.0.0', 12],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['reserved', 'ipv6', '100::', 64],
  ['private', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['private', 'ipv6', 'fec0::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
];

const lists = new Map<NonPublicKind, BlockList>();
for (const [kind, family, network, prefix] of RANGES) {
  const list = lists.get(kind) ?? new BlockList();
  lists.set(kind, list);
  list.addSubnet(network, prefix, family);
}

/** The 32-bit IPv4 address as dotted text. */
function dotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The eight 16-bit groups of an IPv6 address (text already known to be IPv6). */
function groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = (v4[1] as string).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -(v4[1] as string).length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => Number.parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach an IPv4 host: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
 */
function embeddedIpv4(ip: string): string | null {
  const g = groups(ip);
  const low = (((g[6] as number) << 16) | (g[7] as number)) >>> 0;
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0) && low > 1) return dotted(low);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return dotted(low);
  if (g[0] === 0x2002) return dotted((((g[1] as number) << 16) | (g[2] as number)) >>> 0);
  return null;
}

/**
 * What kind of non-public address `ip` is (loopback, private, link-local, unspecified, multicast or
 * reserved), or null for a public unicast address or text that is no IP address. IPv6 forms that
 * carry an IPv4 address are judged by that address.
 */
export function nonPublicKind(ip: string): NonPublicKind | null {
  const family = isIP(ip);
  if (family === 0) return null;
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return nonPublicKind(v4);
  }
  for (const [kind, list] of lists) if (list.check(ip, family === 6 ? 'ipv6' : 'ipv4')) return kind;
  return null;
}
